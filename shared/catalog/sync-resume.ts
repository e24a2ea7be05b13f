import type { Queues } from '../platform/queue/queues.js';
import type { StartJobDeps } from '../jobs/index.js';
import { finishSyncJob } from './catalog.jobs.js';
import { startSyncCleanup, syncJobKey } from './sync-cleanup.js';
import { settleCanceledCleanup, type SettleSyncDeps } from './sync-settle.js';
import { giveUpRestarts, reopenForRestart, restartWaitMs, SYNC_CLEANUP_MAX_RESTARTS } from './sync-restarts.js';
import { syncCleanupsGivenUp } from '../platform/metrics.js';

/** Syncs resume-syncs reads at a time. */
const SYNCS_PER_PAGE = 100;

/** A cleanup resume-syncs stopped restarting (its job row keeps the failure, saying so). */
export type GivenUpCleanup = {
  tenantId: string;
  syncId: string;
  jobRowId: string;
  restarts: number;
};

export interface ResumeSyncsDeps extends StartJobDeps, SettleSyncDeps {
  queues: Pick<Queues, 'enqueue' | 'requeue'>;
}

/**
 * resume-syncs' step: finds the completed syncs, completed over `graceMs` ago, whose cleanup has
 * not ended (their checkpoint is set until finish-sync deletes the seen set) and whose `sync` job
 * is not queued or running, and starts the cleanup again: a row that failed for good (every
 * attempt spent while the database was down) is reopened and its job queued again under its own
 * id, to resume from the checkpoint; a completion no row was written for (the API went between its
 * commit and the job) gets one. A live row is left to reconcile-jobs (it restarts one whose queued
 * work was lost), a canceled one stays canceled and its cleanup is settled (the seen set deleted,
 * the checkpoint cleared, nothing more deleted): its worker settles it as it stops, this finishes
 * a settling cut off (the worker killed) or never begun (its queued job lost with Redis).
 * A cleanup that keeps failing is restarted with a growing wait after each failure (restartWaitMs:
 * none, then 5 min doubling up to 6 h), at most SYNC_CLEANUP_MAX_RESTARTS times; then it is given
 * up once (its job row stays failed with givenUpError, pss_sync_cleanups_given_up_total counts it,
 * the caller logs it) and left alone. The count is cleared when the cleanup ends (ran to its end or
 * canceled) and by the sync_id's next completion.
 * `graceMs`: a completing batch writes its row just after its commit. `now`: the clock the waits are read against.
 */
export async function resumeSyncCleanups(
  deps: ResumeSyncsDeps,
  graceMs: number,
  signal?: AbortSignal,
  now = new Date(),
): Promise<{ resumed: number; started: number; settled: number; waiting: number; givenUp: GivenUpCleanup[] }> {
  let resumed = 0;
  let started = 0;
  let settled = 0;
  let waiting = 0;
  const givenUp: GivenUpCleanup[] = [];
  for (let last = ['', '']; ;) {
    signal?.throwIfAborted();
    const page: Array<{ tenant_id: string; sync_id: string; completed_at: Date; cleanup_restarts: number; cleanup_given_up_at: Date | null }> = await deps
      .db('product_syncs')
      .select('tenant_id', 'sync_id', 'completed_at', 'cleanup_restarts', 'cleanup_given_up_at')
      .whereNotNull('cleanup_after')
      .andWhere('completed_at', '<', deps.db.raw(`now() - ? * interval '1 millisecond'`, [graceMs]))
      .andWhereRaw('(tenant_id, sync_id) > (?, ?)', last)
      .orderBy(['tenant_id', 'sync_id'])
      .limit(SYNCS_PER_PAGE);
    for (const s of page) {
      // Only a row written since this completion: an earlier use of the sync_id had rows of its own.
      const row = await deps.repos.jobs.newest(s.tenant_id, syncJobKey(s.sync_id), s.completed_at);
      if (row?.status === 'canceled') {
        if ((await settleCanceledCleanup(deps, s.tenant_id, s.sync_id, row.id, signal)) !== undefined) settled++;
      } else if (!row) {
        await startSyncCleanup(deps, s.tenant_id, s.sync_id);
        started++;
      } else if (row.status !== 'failed' || s.cleanup_given_up_at) {
        continue;
      } else if (s.cleanup_restarts >= SYNC_CLEANUP_MAX_RESTARTS) {
        if (await giveUpRestarts(deps.db, s.tenant_id, s.sync_id, row.id)) {
          syncCleanupsGivenUp.inc();
          givenUp.push({ tenantId: s.tenant_id, syncId: s.sync_id, jobRowId: row.id, restarts: s.cleanup_restarts });
        }
      } else if (now.getTime() < (row.finished_at ?? row.created_at).getTime() + restartWaitMs(s.cleanup_restarts)) {
        waiting++;
      } else if (await reopenForRestart(deps.db, s.tenant_id, s.sync_id, row.id)) {
        // The row first: queued while it still said failed, the job would find its row finished and skip the work.
        const data = { tenantId: s.tenant_id, syncId: s.sync_id, jobRowId: row.id };
        await deps.queues.requeue(finishSyncJob, data, { jobRowId: row.id });
        resumed++;
      }
    }
    if (page.length < SYNCS_PER_PAGE) return { resumed, started, settled, waiting, givenUp };
    last = [page[page.length - 1].tenant_id, page[page.length - 1].sync_id];
  }
}
