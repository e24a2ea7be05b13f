import { startJob, type StartJobDeps } from '../jobs/index.js';
import { buildVectorsJob } from './vectors.jobs.js';

/** Starts an `embed` job (full vector rebuild), or joins the live one of the store. */
export function startEmbed(deps: StartJobDeps, tenantId: string, reason: string) {
  return startJob(deps, { tenantId, kind: 'embed', params: { reason }, first: buildVectorsJob, data: (jobRowId) => ({ tenantId, jobRowId }) });
}
