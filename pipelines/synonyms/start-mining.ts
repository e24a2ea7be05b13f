import type { Deps } from '../../shared/deps.js';
import type { JobRow } from '../../shared/jobs/jobs.repo.js';
import { mineSynonyms, type MiningParams } from './mine-synonyms.stage.js';

/** Starts a synonym_mining job for a tenant, or joins the one already queued or running. */
export async function startMining(deps: Deps, tenantId: string, params: MiningParams, trigger: 'api' | 'schedule'): Promise<{ job: JobRow; joined: boolean }> {
  const { job, joined } = await deps.repos.jobs.create(tenantId, 'synonym_mining', { ...params, trigger }, 'synonym_mining');
  if (!joined) {
    try {
      await deps.queues.enqueue(mineSynonyms, { tenantId, jobRowId: job.id, ...params }, { jobRowId: job.id });
    } catch (err) {
      await deps.repos.jobs.finish(job.id, 'failed', { error: 'could not queue the mining run' });
      throw err;
    }
  }
  return { job, joined };
}
