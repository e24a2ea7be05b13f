import type { Knex } from 'knex';

/**
 * A full sync's last batch (`last_batch_at`, moved by every batch) and when it expired
 * (`expired_at`): a sync idle past SYNC_IDLE_DAYS expires, purge-expired deletes its seen set and
 * keeps the row a while as a tombstone, so a late batch under its sync_id answers 410
 * `sync_expired` instead of completing with a partial seen set. Open syncs count from now: none
 * expires sooner than SYNC_IDLE_DAYS after this migration.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `ALTER TABLE product_syncs ADD COLUMN IF NOT EXISTS last_batch_at timestamptz NOT NULL DEFAULT now(),
       ADD COLUMN IF NOT EXISTS expired_at timestamptz`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE product_syncs DROP COLUMN IF EXISTS last_batch_at, DROP COLUMN IF EXISTS expired_at');
}
