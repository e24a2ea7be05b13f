import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { finishSyncJob, indexProductsJob } from '../../shared/catalog/catalog.jobs.js';
import { deleteSeenPage, deleteUnsentPage, SYNC_CLEANUP_PAGE } from '../../shared/catalog/sync-cleanup.js';

/**
 * Finishes a large store's completed full sync (a `sync` job, started by its completing batch):
 * walks the catalog in pages of SYNC_CLEANUP_PAGE, deleting the products the sync never sent that
 * are older than it (one short transaction a page), removing them from search at once and queueing
 * their index job (vectors, translations); then deletes the seen set in pages. Re-runnable: a retry
 * walks again and finds only what is left. Progress: the share of the catalog walked. Result:
 * `deleted` (by this run: a retried run does not count what an earlier attempt deleted).
 */
export const finishSync = defineStage({
  ...finishSyncJob,
  async run({ data, deps, progress, signal }) {
    const { tenantId, syncId } = data;
    const total = Math.max(1, await deps.repos.products.count(tenantId));
    let deleted = 0;
    let walked = 0;
    for (let after: string | null = ''; after !== null;) {
      signal.throwIfAborted();
      const step = await deleteUnsentPage(deps.db, tenantId, syncId, after);
      if (step.deleted.length) {
        await deps.engine.remove(tenantId, step.deleted);
        // A fresh batch id: a retry's pages hold other products, and must not be taken for an earlier run's jobs.
        await deps.queues.enqueue(indexProductsJob, { tenantId, batchId: newId('b'), ids: [], deletes: step.deleted });
        deleted += step.deleted.length;
      }
      walked += SYNC_CLEANUP_PAGE;
      after = step.next;
      await progress(Math.min(0.95, walked / total));
    }
    if (deleted) await deps.notices.publish('index', tenantId);
    for (let after: string | null = ''; after !== null; after = await deleteSeenPage(deps.db, tenantId, syncId, after)) signal.throwIfAborted();
    await progress(1);
    return { deleted };
  },
});
