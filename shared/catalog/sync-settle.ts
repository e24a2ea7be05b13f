import type { Knex } from 'knex';
import type { LexicalEngine } from '../engines/lexical/port.js';
import type { Queues } from '../platform/queue/queues.js';
import type { StartJobDeps } from '../jobs/index.js';
import { newId } from '../platform/ids.js';
import { indexProductsJob } from './catalog.jobs.js';
import { endCleanup } from './sync-cleanup.js';

export interface SettleSyncDeps {
  db: Knex;
  engine: Pick<LexicalEngine, 'remove'>;
  queues: Pick<Queues, 'enqueue'>;
  repos: StartJobDeps['repos'];
}

/** Removes deleted products from search at once and queues their index job (vectors, translations). */
export async function takeOutOfSearch(deps: Omit<SettleSyncDeps, 'db' | 'repos'>, tenantId: string, ids: string[]): Promise<void> {
  await deps.engine.remove(tenantId, ids);
  // A fresh batch id: a resumed run's pages hold other products, and must not be taken for an earlier run's jobs.
  await deps.queues.enqueue(indexProductsJob, { tenantId, batchId: newId('b'), ids: [], deletes: ids });
}

/**
 * Ends the cleanup of a completed sync whose `sync` job (`jobRowId`) was canceled: the products
 * deleted so far stay deleted, the rest are kept. Marks the cleanup canceled first (no page of any
 * run deletes after it), takes the last page's products out of search (a run may have stopped
 * between its delete and their removal), deletes the seen set in pages and clears the checkpoint,
 * then writes `{ deleted }` to the canceled job row. The sync_id is then free once its completed
 * hold has passed, as after a cleanup that ran to its end. Re-runnable: resume-syncs finishes a
 * settling its worker did not. Returns the products the cleanup deleted (undefined: not settled,
 * as the row belongs to an earlier completion of the sync_id).
 */
export async function settleCanceledCleanup(
  deps: SettleSyncDeps,
  tenantId: string,
  syncId: string,
  jobRowId: string,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const row = await deps.repos.jobs.get(jobRowId);
  const sync = await deps.db('product_syncs').where({ tenant_id: tenantId, sync_id: syncId }).first('completed_at');
  // A row of an earlier completion: the cleanup now running (or done) is another one's.
  if (!row || !sync?.completed_at || row.created_at < sync.completed_at) return undefined;
  const [marked] = await deps
    .db('product_syncs')
    .where({ tenant_id: tenantId, sync_id: syncId })
    .whereNotNull('cleanup_after')
    .update({ cleanup_canceled_at: deps.db.raw('coalesce(cleanup_canceled_at, now())') })
    .returning(['cleanup_removing']);
  if (marked?.cleanup_removing?.length) await takeOutOfSearch(deps, tenantId, marked.cleanup_removing);
  const deleted = await endCleanup(deps.db, tenantId, syncId, signal);
  await deps.repos.jobs.setCanceledResult(jobRowId, { deleted });
  return deleted;
}
