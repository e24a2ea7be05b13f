import { defineStage } from '../define-stage.js';
import { finishSyncJob, indexProductsJob } from '../../shared/catalog/catalog.jobs.js';
import { deleteSeenPage, deleteUnsentPage, SYNC_CLEANUP_PAGE } from '../../shared/catalog/sync-cleanup.js';

/**
 * Finishes a large store's completed full sync (a `sync` job, started by its completing batch):
 * walks the catalog in pages of SYNC_CLEANUP_PAGE, deleting the products the sync never sent that
 * are older than it (one short transaction a page), removing them from search at once and queueing
 * their index job (vectors, translations); then deletes the seen set in pages. Re-runnable: a retry
 * walks again and finds only what is left. Progress: the share of the catalog walked. Result: `deleted`.
 */
export const finishSync = defineStage({
  ...finishSyncJob,
  async run({ data, deps, progress, signal }) {
    const { tenantId, syncId, jobRowId } = data;
    const total = Math.max(1, await deps.repos.products.count(tenantId));
    let deleted = 0;
    let walked = 0;
    for (let after: string | null = '', page = 0; after !== null; page++) {
      signal.throwIfAborted();
      const step = await deleteUnsentPage(deps.db, tenantId, syncId, after);
      if (step.deleted.length) {
        await deps.engine.remove(tenantId, step.deleted);
        await deps.queues.enqueue(indexProductsJob, { tenantId, batchId: `${jobRowId}-${page}`, ids: [], deletes: step.deleted });
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
