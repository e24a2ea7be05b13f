import type { JobSpec } from '../platform/queue/define-job.js';
import type { Queues } from '../platform/queue/queues.js';
import type { JobKind, JobRow, jobsRepo } from './jobs.repo.js';

export interface StartJobDeps {
  repos: { jobs: ReturnType<typeof jobsRepo> };
  queues: Pick<Queues, 'enqueue'>;
}

export interface StartJob<T> {
  tenantId: string;
  kind: JobKind;
  /** Stored on the jobs row (`params`). */
  params: Record<string, unknown>;
  /** A live job with the same key is joined instead of starting another; default: the kind. */
  dedupeKey?: string;
  /** The first stage's job and its data, given the new jobs row id. */
  first: JobSpec<T>;
  data(jobRowId: string): T;
}

/**
 * Starts a long job (a jobs row and its first stage), or joins the live one with the same dedupe
 * key. When the enqueue fails the row is failed at once, so no row waits for a job that never ran.
 */
export async function startJob<T>(deps: StartJobDeps, start: StartJob<T>): Promise<{ job: JobRow; joined: boolean }> {
  const jobs = deps.repos.jobs;
  const { job, joined } = await jobs.create(start.tenantId, start.kind, start.params, start.dedupeKey ?? start.kind);
  if (!joined) {
    try {
      await deps.queues.enqueue(start.first, start.data(job.id), { jobRowId: job.id });
    } catch (err) {
      await jobs.finish(job.id, 'failed', { error: `could not queue the ${start.kind} job` });
      throw err;
    }
  }
  return { job, joined };
}
