import type { Knex } from 'knex';
import { AppError } from '../platform/errors.js';

/**
 * Days an expired sync's row is kept once its seen set is purged: a late batch under its sync_id
 * answers 410 `sync_expired` meanwhile (after it, the sync_id starts a new sync, as after completion).
 */
export const SYNC_EXPIRED_KEPT_DAYS = 30;

export function syncExpired(syncId: string, idleDays: number): AppError {
  return new AppError(
    'sync_expired',
    410,
    `full sync "${syncId}" expired after ${idleDays} days without a batch and what it had sent was discarded; ` +
      'this batch was not applied and nothing was deleted: start the full sync again from its first batch under a new sync_id',
    [{ in: 'body', field: 'sync_id', code: 'expired', message: 'this sync expired: send every batch again under a new sync_id' }],
  );
}

/**
 * Opens a full sync or counts one more batch of it (moving `last_batch_at`), inside the batch's
 * transaction: the row stays locked until the batch commits, so purge-expired cannot expire it
 * meanwhile. A sync idle past `idleDays` or already expired throws 410 `sync_expired` (the whole
 * batch rolls back): completing it would delete every product its purged batches had sent.
 */
export async function touchSync(trx: Knex.Transaction, tenantId: string, syncId: string, idleDays: number): Promise<void> {
  const res = await trx.raw(
    `INSERT INTO product_syncs (tenant_id, sync_id, batches) VALUES (?, ?, 1)
     ON CONFLICT (tenant_id, sync_id) DO UPDATE SET batches = product_syncs.batches + 1, last_batch_at = now()
      WHERE product_syncs.expired_at IS NULL AND product_syncs.last_batch_at >= now() - make_interval(days => ?)
     RETURNING batches`,
    [tenantId, syncId, idleDays],
  );
  if (!res.rows.length) throw syncExpired(syncId, idleDays);
}
