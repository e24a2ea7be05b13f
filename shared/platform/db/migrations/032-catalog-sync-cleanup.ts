import type { Knex } from 'knex';

/**
 * A large store's full-sync cleanup (finish-sync) keeps its checkpoint on the sync's row, so a run
 * that starts again (a retry, or resume-syncs restarting one that failed for good) resumes where
 * the last one stopped and its result counts every product the cleanup deleted:
 * `cleanup_after` (set while the cleanup has not ended: the product id the walk has passed, ''
 * before the first page), `cleanup_deleted` (unsent products deleted so far) and
 * `cleanup_removing` (ids the last page deleted, to take out of search again on resume: walking
 * again would not find them). The partial index is resume-syncs' work list. Cleanups already under
 * way (a seen set kept after completion) start their walk again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `ALTER TABLE product_syncs ADD COLUMN IF NOT EXISTS cleanup_after text,
       ADD COLUMN IF NOT EXISTS cleanup_deleted integer NOT NULL DEFAULT 0,
       ADD COLUMN IF NOT EXISTS cleanup_removing text[]`,
  );
  await knex.raw('CREATE INDEX IF NOT EXISTS product_syncs_cleanups ON product_syncs (completed_at) WHERE cleanup_after IS NOT NULL');
  await knex.raw(
    `UPDATE product_syncs s SET cleanup_after = '' WHERE s.completed_at IS NOT NULL AND s.cleanup_after IS NULL
        AND EXISTS (SELECT 1 FROM product_sync_items i WHERE i.tenant_id = s.tenant_id AND i.sync_id = s.sync_id)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS product_syncs_cleanups');
  await knex.raw(
    'ALTER TABLE product_syncs DROP COLUMN IF EXISTS cleanup_after, DROP COLUMN IF EXISTS cleanup_deleted, DROP COLUMN IF EXISTS cleanup_removing',
  );
}
