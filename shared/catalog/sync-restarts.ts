import type { Knex } from 'knex';
import { jobsRepos } from '../jobs/index.js';

/** How many times resume-syncs restarts a full-sync cleanup that keeps failing for good before it gives up. */
export const SYNC_CLEANUP_MAX_RESTARTS = 10;
/** The wait after a failure before the second restart; it doubles for each later one, up to SYNC_CLEANUP_MAX_WAIT_MS. */
export const SYNC_CLEANUP_FIRST_WAIT_MS = 5 * 60_000;
export const SYNC_CLEANUP_MAX_WAIT_MS = 6 * 3_600_000;

/**
 * How long after its job failed a cleanup restarted `restarts` times so far waits before the next
 * restart: none for the first (a database outage that spent every attempt is over), then 5 min,
 * 10, 20 ... up to 6 h. Ten restarts span about 22 hours.
 */
export function restartWaitMs(restarts: number): number {
  return restarts === 0 ? 0 : Math.min(SYNC_CLEANUP_FIRST_WAIT_MS * 2 ** (restarts - 1), SYNC_CLEANUP_MAX_WAIT_MS);
}

/** The error a given-up cleanup's job row keeps: what operators read on `GET /v1/jobs/{id}`. */
export const givenUpError = (restarts: number, lastError: string | null) =>
  `full-sync cleanup given up after ${restarts} restarts by resume-syncs; it is not restarted again (last error: ${lastError ?? 'unknown'})`;

/**
 * Reopens a sync's failed job row (failed -> queued) and counts the restart on the sync's row, in
 * one transaction; false when the row is no longer failed (another sweep took it) or a live row
 * with its dedupe key has taken over. The caller queues the job after the commit.
 */
export async function reopenForRestart(db: Knex, tenantId: string, syncId: string, jobRowId: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    if (!(await jobsRepos(trx).jobs.reopen(jobRowId))) return false;
    await trx('product_syncs')
      .where({ tenant_id: tenantId, sync_id: syncId })
      .update({ cleanup_restarts: trx.raw('cleanup_restarts + 1') });
    return true;
  });
}

/**
 * Stops restarting a sync's cleanup: marks the sync given up and writes givenUpError on its failed
 * job row, in one transaction. True only for the call that marked it (the caller logs it once).
 */
export async function giveUpRestarts(db: Knex, tenantId: string, syncId: string, jobRowId: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const [sync] = await trx('product_syncs')
      .where({ tenant_id: tenantId, sync_id: syncId })
      .whereNull('cleanup_given_up_at')
      .update({ cleanup_given_up_at: trx.fn.now() })
      .returning(['cleanup_restarts']);
    if (!sync) return false;
    const jobs = jobsRepos(trx).jobs;
    const row = await jobs.get(jobRowId);
    if (!(await jobs.amendFailure(jobRowId, givenUpError(sync.cleanup_restarts, row?.error ?? null))))
      throw new Error(`the job row ${jobRowId} of sync ${syncId} is no longer failed`);
    return true;
  });
}
