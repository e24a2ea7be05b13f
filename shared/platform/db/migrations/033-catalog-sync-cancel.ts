import type { Knex } from 'knex';

/**
 * A large store's full-sync cleanup can be canceled (its `sync` job): `cleanup_canceled_at` marks
 * it, so no run of finish-sync deletes another product after the cancel (each page checks it under
 * the sync row's lock) and its settling (the seen set deleted, the checkpoint cleared) can be
 * finished by resume-syncs when the worker doing it died. Reset by the sync_id's next completion.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE product_syncs ADD COLUMN IF NOT EXISTS cleanup_canceled_at timestamptz');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE product_syncs DROP COLUMN IF EXISTS cleanup_canceled_at');
}
