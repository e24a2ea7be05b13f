import { startJob, type StartJobDeps } from '../jobs/index.js';
import { mineSynonymsJob, type MiningParams } from './synonyms.jobs.js';

/** Starts a synonym_mining job for a tenant, or joins the one already queued or running. */
export function startMining(deps: StartJobDeps, tenantId: string, params: MiningParams, trigger: 'api' | 'schedule') {
  return startJob(deps, {
    tenantId,
    kind: 'synonym_mining',
    params: { ...params, trigger },
    first: mineSynonymsJob,
    data: (jobRowId) => ({ tenantId, jobRowId, ...params }),
  });
}
