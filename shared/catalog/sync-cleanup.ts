import type { Knex } from 'knex';
import { startJob, type StartJobDeps } from '../jobs/index.js';
import { finishSyncJob } from './catalog.jobs.js';

/**
 * A completing batch deletes the unsent products of a store of at most this many products itself
 * (`deleted` counts them); a larger store's go to a `sync` job (finish-sync), off the request's
 * statement timeout. bench/full-sync: walking 100k products inside the request is what timed out.
 */
export const SYNC_INLINE_PRODUCTS = 10_000;

/** Products finish-sync reads at a time (and seen-set rows it deletes at a time: 5 per product page). */
export const SYNC_CLEANUP_PAGE = 1000;

// One primary-key probe of the seen set per product (a LATERAL ... LIMIT 1 cannot become a join):
// without statistics on a seen set filled seconds ago, NOT EXISTS was planned as a nested loop over
// the whole seen set for each product (100k x 100k: past the 3 s statement timeout, deleting nothing).
const UNSENT = `x.updated_at < (SELECT started_at FROM product_syncs WHERE tenant_id = ? AND sync_id = ?)
  AND NOT EXISTS (SELECT 1 FROM (SELECT 1 FROM product_sync_items s WHERE s.tenant_id = x.tenant_id AND s.sync_id = ? AND s.product_id = x.id LIMIT 1) k)`;

/** Whether the tenant stores more than SYNC_INLINE_PRODUCTS products (reads at most one more than that). */
export async function syncTooLargeInline(trx: Knex.Transaction, tenantId: string): Promise<boolean> {
  const res = await trx.raw(`SELECT count(*)::int AS n FROM (SELECT 1 FROM products WHERE tenant_id = ? LIMIT ?) c`, [tenantId, SYNC_INLINE_PRODUCTS + 1]);
  return res.rows[0].n > SYNC_INLINE_PRODUCTS;
}

/** Deletes every product of a small store the sync never sent and older than it (inside the completing batch). */
export async function deleteUnsentInline(trx: Knex.Transaction, tenantId: string, syncId: string): Promise<string[]> {
  const res = await trx.raw(
    `DELETE FROM products p WHERE p.tenant_id = ? AND p.id = ANY(ARRAY(SELECT x.id FROM products x WHERE x.tenant_id = ? AND ${UNSENT})) RETURNING p.id`,
    [tenantId, tenantId, tenantId, syncId, syncId],
  );
  return res.rows.map((r: { id: string }) => r.id);
}

/** Where a completed sync's cleanup stands (see migration 032); `after` null: the cleanup has ended. */
export interface CleanupCheckpoint {
  completedAt: Date | null;
  /** Set once the cleanup was canceled: it deletes no more products, only settles (sync-settle.ts). */
  canceledAt: Date | null;
  after: string | null;
  deleted: number;
  removing: string[];
}

export async function cleanupCheckpoint(db: Knex, tenantId: string, syncId: string): Promise<CleanupCheckpoint | undefined> {
  const row = await db('product_syncs')
    .where({ tenant_id: tenantId, sync_id: syncId })
    .first('completed_at', 'cleanup_canceled_at', 'cleanup_after', 'cleanup_deleted', 'cleanup_removing');
  return (
    row && {
      completedAt: row.completed_at,
      canceledAt: row.cleanup_canceled_at,
      after: row.cleanup_after,
      deleted: row.cleanup_deleted,
      removing: row.cleanup_removing ?? [],
    }
  );
}

/**
 * One step of finish-sync: reads the next SYNC_CLEANUP_PAGE products after `after` (id order) and
 * deletes those the sync never sent that are older than it, in one short transaction that also
 * moves the checkpoint past the page (and records the deleted ids, for a resume to take out of
 * search again). A product written since the sync started (a later batch) survives. Returns the
 * deleted ids and where the next step starts (null: the walk is over).
 */
export async function deleteUnsentPage(db: Knex, tenantId: string, syncId: string, after: string): Promise<{ deleted: string[]; next: string | null }> {
  return db.transaction(async (trx) => {
    // The sync's row first, locked: a cancel marks it before deleting the seen set, and a page that
    // read a half-deleted seen set would take sent products for unsent ones.
    const sync = await trx('product_syncs').where({ tenant_id: tenantId, sync_id: syncId }).forUpdate().first('cleanup_after', 'cleanup_canceled_at');
    if (!sync || sync.cleanup_after === null || sync.cleanup_canceled_at) return { deleted: [], next: null };
    // Walk the primary key, whatever the statistics say (see productsRepo.page).
    await trx.raw('SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off');
    const page = await trx.raw(
      `SELECT x.id, (${UNSENT}) AS unsent
         FROM (SELECT tenant_id, id, updated_at FROM products WHERE tenant_id = ? AND id > ? ORDER BY id LIMIT ?) x`,
      [tenantId, syncId, syncId, tenantId, after, SYNC_CLEANUP_PAGE],
    );
    const rows: Array<{ id: string; unsent: boolean }> = page.rows;
    const unsent = rows.filter((r) => r.unsent).map((r) => r.id);
    const deleted = unsent.length
      ? (
          await trx.raw(
            `DELETE FROM products x WHERE x.tenant_id = ? AND x.id = ANY(?::text[]) AND x.updated_at < (SELECT started_at FROM product_syncs WHERE tenant_id = ? AND sync_id = ?) RETURNING x.id`,
            [tenantId, unsent, tenantId, syncId],
          )
        ).rows.map((r: { id: string }) => r.id)
      : [];
    await trx('product_syncs')
      .where({ tenant_id: tenantId, sync_id: syncId })
      .whereNotNull('cleanup_after')
      .update({
        cleanup_after: rows.length ? rows[rows.length - 1].id : after,
        cleanup_deleted: trx.raw('cleanup_deleted + ?', [deleted.length]),
        cleanup_removing: deleted.length ? deleted : null,
      });
    return { deleted, next: rows.length < SYNC_CLEANUP_PAGE ? null : rows[rows.length - 1].id };
  });
}

/**
 * Deletes the next `limit` rows of a sync's seen set after product id `after` (a seek past the rows
 * already deleted: picking "any `limit` rows" again walked over every dead one first, 6.3 s for 50k).
 * Returns where the next page starts (null: the seen set is gone).
 */
async function deleteSeenPage(db: Knex, tenantId: string, syncId: string, after: string, limit = SYNC_CLEANUP_PAGE * 5): Promise<string | null> {
  return db.transaction(async (trx) => {
    await trx.raw('SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off');
    const ids: string[] = await trx('product_sync_items')
      .where({ tenant_id: tenantId, sync_id: syncId })
      .andWhere('product_id', '>', after)
      .orderBy('product_id')
      .limit(limit)
      .pluck('product_id');
    if (ids.length)
      await trx.raw(`DELETE FROM product_sync_items WHERE tenant_id = ? AND sync_id = ? AND product_id = ANY(?::text[])`, [tenantId, syncId, ids]);
    return ids.length < limit ? null : ids[ids.length - 1];
  });
}

/**
 * The last step of a sync's cleanup, whether it ran to its end or was canceled: deletes the seen set
 * in pages, then marks the cleanup ended; returns the products the cleanup deleted in all.
 */
export async function endCleanup(db: Knex, tenantId: string, syncId: string, signal?: AbortSignal): Promise<number> {
  for (let after: string | null = ''; after !== null; after = await deleteSeenPage(db, tenantId, syncId, after)) signal?.throwIfAborted();
  const deleted = await markEnded(db, tenantId, syncId);
  if (deleted === undefined) throw new Error(`the seen set of sync ${syncId} is still there after its deletion`);
  return deleted;
}

/** Marks a sync's cleanup ended once its seen set is gone (and clears resume-syncs' restart count); returns the products it deleted in all (undefined: the seen set is still there). */
async function markEnded(db: Knex, tenantId: string, syncId: string): Promise<number | undefined> {
  const res = await db.raw(
    `UPDATE product_syncs s SET cleanup_after = NULL, cleanup_removing = NULL, cleanup_restarts = 0, cleanup_given_up_at = NULL
      WHERE s.tenant_id = ? AND s.sync_id = ?
        AND NOT EXISTS (SELECT 1 FROM product_sync_items i WHERE i.tenant_id = s.tenant_id AND i.sync_id = s.sync_id)
     RETURNING s.cleanup_deleted`,
    [tenantId, syncId],
  );
  return res.rows[0]?.cleanup_deleted;
}

/**
 * Whether a completed sync's cleanup is still to run: its seen set is there (its finish-sync has not
 * ended) and it was not canceled (a canceled cleanup's seen set goes without deleting more products:
 * the completing batch sent again must not start the deletions the merchant stopped).
 */
export async function syncCleanupPending(db: Knex | Knex.Transaction, tenantId: string, syncId: string): Promise<boolean> {
  const res = await db.raw(
    `SELECT 1 FROM product_syncs s
      WHERE s.tenant_id = ? AND s.sync_id = ? AND s.cleanup_canceled_at IS NULL
        AND EXISTS (SELECT 1 FROM product_sync_items i WHERE i.tenant_id = s.tenant_id AND i.sync_id = s.sync_id)
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.tenant_id = s.tenant_id AND j.dedupe_key = ? AND j.status = 'canceled' AND j.created_at >= s.completed_at)`,
    [tenantId, syncId, syncJobKey(syncId)],
  );
  return res.rows.length > 0;
}

/** The dedupe key of a sync's `sync` jobs rows: one live at a time. */
export const syncJobKey = (syncId: string) => `sync-${syncId}`;

/** Starts the finish-sync job of a completed sync, or joins the one queued or running for it. */
export function startSyncCleanup(deps: StartJobDeps, tenantId: string, syncId: string) {
  return startJob(deps, {
    tenantId,
    kind: 'sync',
    params: { sync_id: syncId },
    dedupeKey: syncJobKey(syncId),
    first: finishSyncJob,
    data: (jobRowId) => ({ tenantId, syncId, jobRowId }),
  });
}
