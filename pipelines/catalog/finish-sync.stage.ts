import { defineStage } from '../define-stage.js';
import { finishSyncJob } from '../../shared/catalog/catalog.jobs.js';
import { cleanupCheckpoint, deleteUnsentPage, endCleanup, SYNC_CLEANUP_PAGE } from '../../shared/catalog/sync-cleanup.js';
import { settleCanceledCleanup, takeOutOfSearch } from '../../shared/catalog/sync-settle.js';

/**
 * Finishes a large store's completed full sync (a `sync` job, started by its completing batch or by
 * resume-syncs): walks the catalog in pages of SYNC_CLEANUP_PAGE, deleting the products the sync
 * never sent that are older than it (one short transaction a page, which also moves the sync's
 * checkpoint), removing them from search at once and queueing their index job (vectors,
 * translations); then deletes the seen set in pages. Re-runnable: a retry or restart resumes after
 * the last page done. Progress: the share of the catalog walked by this run. Result: `deleted`,
 * every product the cleanup deleted, over all its runs. Canceled (queued or running), it stops
 * deleting and settles: the seen set goes, the checkpoint is cleared, the row keeps `deleted`.
 */
export const finishSync = defineStage({
  ...finishSyncJob,
  async run({ data, deps, progress, signal }) {
    const { tenantId, syncId } = data;
    const at = await cleanupCheckpoint(deps.db, tenantId, syncId);
    const row = await deps.repos.jobs.get(data.jobRowId);
    // A job of an earlier completion, run again after its sync_id began another sync: the products are no longer its to delete.
    if (!at?.completedAt || !row || row.created_at < at.completedAt) return { deleted: 0, superseded: true };
    // Ended already (this job's own end was not written: the database went as it finished).
    if (at.after === null) return { deleted: at.deleted };
    // Canceled meanwhile (its settling cut off): another run must not start deleting again.
    if (at.canceledAt) return { deleted: await settleCanceledCleanup(deps, tenantId, syncId, data.jobRowId, signal), canceled: true };
    // The last page a run deleted may not have left search: its products are gone, so walking again would not find them.
    if (at.removing.length) await takeOutOfSearch(deps, tenantId, at.removing);
    const total = Math.max(1, await deps.repos.products.count(tenantId));
    let removed = at.removing.length;
    let walked = 0;
    for (let after: string | null = at.after; after !== null;) {
      signal.throwIfAborted();
      const step = await deleteUnsentPage(deps.db, tenantId, syncId, after);
      if (step.deleted.length) await takeOutOfSearch(deps, tenantId, step.deleted);
      removed += step.deleted.length;
      walked += SYNC_CLEANUP_PAGE;
      after = step.next;
      await progress(Math.min(0.95, walked / total));
    }
    if (removed) await deps.notices.publish('index', tenantId);
    const deleted = await endCleanup(deps.db, tenantId, syncId, signal);
    await progress(1);
    return { deleted };
  },
  // The deletions stop where they are; the cleanup ends, so the sync_id is free after its hold.
  // A settling cut off (the worker killed) is finished by resume-syncs.
  async canceled({ data, deps }) {
    await settleCanceledCleanup(deps, data.tenantId, data.syncId, data.jobRowId);
  },
});
