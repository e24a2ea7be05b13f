import type { Knex } from 'knex';
import { AppError } from '../platform/errors.js';
import { deleteBatch } from '../platform/db/batch-delete.js';

/**
 * Days an expired sync's row is kept once its seen set is purged: a late batch under its sync_id
 * answers 410 `sync_expired` meanwhile (after it, the sync_id starts a new sync, as after completion).
 */
export const SYNC_EXPIRED_KEPT_DAYS = 30;

/**
 * Minutes a completed sync holds its sync_id. The retry of its completing batch (its answer lost)
 * is then a plain batch: it would otherwise open a new one-batch sync and complete it at once,
 * deleting every product the earlier batches sent; sent again, the same body changes nothing (spec
 * batch rule 2). Any other batch under the sync_id meanwhile answers 409 `sync_completed`. After
 * the hold the sync_id starts a new sync (a store reusing one id for each night's sync).
 */
export const SYNC_COMPLETED_HOLD_MINUTES = 15;

/** Expired syncs the purge reads at a time. */
const SYNCS_PER_PAGE = 100;

export function syncExpired(syncId: string, idleDays: number): AppError {
  return new AppError(
    'sync_expired',
    410,
    `full sync "${syncId}" expired after ${idleDays} days without a batch and what it had sent was discarded; ` +
      'this batch was not applied and nothing was deleted: start the full sync again from its first batch under a new sync_id',
    [{ in: 'body', field: 'sync_id', code: 'expired', message: 'this sync expired: send every batch again under a new sync_id' }],
  );
}

export function syncCompleted(syncId: string, completedAt: Date): AppError {
  return new AppError(
    'sync_completed',
    409,
    `full sync "${syncId}" completed at ${completedAt.toISOString()}; this batch was not applied and nothing was deleted. ` +
      `Start the next full sync under a new sync_id`,
    [{ in: 'body', field: 'sync_id', code: 'completed', message: 'this sync has completed: send the next one under a new sync_id' }],
  );
}

/**
 * Opens a full sync or counts one more batch of it (moving `last_batch_at`), inside the batch's
 * transaction: the row stays locked until the batch commits, so purge-expired cannot expire it
 * meanwhile. A sync idle past `idleDays` or already expired throws 410 `sync_expired` (the whole
 * batch rolls back): completing it would delete every product its purged batches had sent. Under a
 * sync completed under SYNC_COMPLETED_HOLD_MINUTES ago, a completing batch (a retry) is `done`, any
 * other throws 409 `sync_completed`; after the hold (and once its finish-sync has ended: its seen set
 * is gone) the sync_id starts afresh. `open`: this batch counts.
 */
export async function touchSync(trx: Knex.Transaction, tenantId: string, syncId: string, idleDays: number, completing: boolean): Promise<'open' | 'done'> {
  const res = await trx.raw(
    `INSERT INTO product_syncs (tenant_id, sync_id, batches) VALUES (?, ?, 1)
     ON CONFLICT (tenant_id, sync_id) DO UPDATE
        SET batches = CASE WHEN product_syncs.completed_at IS NULL THEN product_syncs.batches + 1 ELSE 1 END,
            started_at = CASE WHEN product_syncs.completed_at IS NULL THEN product_syncs.started_at ELSE now() END,
            completed_at = NULL, last_batch_at = now()
      WHERE product_syncs.expired_at IS NULL
        AND (product_syncs.completed_at IS NULL AND product_syncs.last_batch_at >= now() - make_interval(days => ?)
             OR product_syncs.completed_at < now() - make_interval(mins => ?)
                AND NOT EXISTS (SELECT 1 FROM product_sync_items i WHERE i.tenant_id = product_syncs.tenant_id AND i.sync_id = product_syncs.sync_id))
     RETURNING batches`,
    [tenantId, syncId, idleDays, SYNC_COMPLETED_HOLD_MINUTES],
  );
  if (res.rows.length) return 'open';
  const row = await trx('product_syncs').where({ tenant_id: tenantId, sync_id: syncId }).first('completed_at', 'expired_at');
  if (row?.completed_at && !row.expired_at) {
    if (completing) return 'done';
    throw syncCompleted(syncId, row.completed_at);
  }
  throw syncExpired(syncId, idleDays);
}

/**
 * Ends a full sync: its seen set goes (`keepSeen`: finish-sync deletes it in pages once it has
 * deleted the unsent products, from a fresh checkpoint), its row stays as completed (SYNC_COMPLETED_HOLD_MINUTES).
 */
export async function completeSync(trx: Knex.Transaction, tenantId: string, syncId: string, opts: { keepSeen?: boolean } = {}): Promise<void> {
  if (!opts.keepSeen) await trx('product_sync_items').where({ tenant_id: tenantId, sync_id: syncId }).delete();
  await trx('product_syncs')
    .where({ tenant_id: tenantId, sync_id: syncId })
    .update({
      completed_at: trx.fn.now(),
      cleanup_after: opts.keepSeen ? '' : null,
      cleanup_deleted: 0,
      cleanup_removing: null,
      cleanup_canceled_at: null,
      cleanup_restarts: 0,
      cleanup_given_up_at: null,
    });
}

/**
 * purge-expired's step for syncs left open: marks the syncs idle past `idleDays` expired (a batch
 * touching one meanwhile holds its row: the mark re-checks it and leaves it open), then deletes
 * the seen sets of expired syncs, sync by sync, at most `batch` rows per statement. The rows of
 * the syncs themselves stay (SYNC_EXPIRED_KEPT_DAYS) to answer `sync_expired`. Returns items deleted.
 */
export async function purgeIdleSyncs(db: Knex, idleDays: number, batch: number, signal?: AbortSignal): Promise<number> {
  const idle = `expired_at IS NULL AND completed_at IS NULL AND last_batch_at < now() - make_interval(days => ?)`;
  for (;;) {
    signal?.throwIfAborted();
    const marked = await db.raw(
      `UPDATE product_syncs SET expired_at = now() WHERE ctid = ANY(ARRAY(SELECT ctid FROM product_syncs WHERE ${idle} LIMIT ?)) AND ${idle}`,
      [idleDays, batch, idleDays],
    );
    if ((marked.rowCount ?? 0) < batch) break;
  }
  let deleted = 0;
  for (;;) {
    // An expired sync never gains items again (touchSync refuses it): each page is new work, and the walk ends.
    const expired: Array<{ tenant_id: string; sync_id: string }> = await db('product_syncs as s')
      .select('s.tenant_id', 's.sync_id')
      .whereNotNull('s.expired_at')
      .whereExists((q) => q.select(db.raw('1')).from('product_sync_items as i').whereRaw('i.tenant_id = s.tenant_id AND i.sync_id = s.sync_id'))
      .limit(SYNCS_PER_PAGE);
    if (!expired.length) return deleted;
    for (const s of expired) {
      for (;;) {
        signal?.throwIfAborted();
        const n = await deleteBatch(db, 'product_sync_items', 'tenant_id = ? AND sync_id = ?', [s.tenant_id, s.sync_id], batch);
        deleted += n;
        if (n < batch) break;
      }
    }
  }
}
