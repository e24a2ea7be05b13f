import type { Knex } from 'knex';

/**
 * resume-syncs restarts a full-sync cleanup that failed for good with a growing wait, a bounded
 * number of times (see sync-restarts.ts): `cleanup_restarts` counts its restarts of the cleanup,
 * `cleanup_given_up_at` marks one it stopped restarting (its job row stays failed, saying so).
 * Both are cleared when the cleanup ends (ran to its end or canceled) and by the sync_id's next completion.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `ALTER TABLE product_syncs ADD COLUMN IF NOT EXISTS cleanup_restarts integer NOT NULL DEFAULT 0,
       ADD COLUMN IF NOT EXISTS cleanup_given_up_at timestamptz`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE product_syncs DROP COLUMN IF EXISTS cleanup_restarts, DROP COLUMN IF EXISTS cleanup_given_up_at');
}
