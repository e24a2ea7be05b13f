import type { Deps } from '../deps.js';
import type { JobRow } from '../jobs/jobs.repo.js';
import { buildGeneration } from '../../pipelines/catalog/build-generation.stage.js';

/** Starts a reindex job, or joins the one already queued or running for the tenant. */
export async function startReindex(deps: Deps, tenantId: string, mode: 'full' | 'settings_only', reason: string | null): Promise<{ job: JobRow; joined: boolean }> {
  const { job, joined } = await deps.repos.jobs.create(tenantId, 'reindex', { mode, reason }, 'reindex');
  if (!joined) {
    try {
      await deps.queues.enqueue(buildGeneration, { tenantId, jobRowId: job.id, mode }, { jobRowId: job.id });
    } catch (err) {
      await deps.repos.jobs.finish(job.id, 'failed', { error: 'could not queue the reindex' });
      throw err;
    }
  }
  return { job, joined };
}
