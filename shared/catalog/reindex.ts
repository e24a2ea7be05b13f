import { startJob, type StartJobDeps } from '../jobs/index.js';
import { buildGenerationJob } from './catalog.jobs.js';

/** Starts a reindex job, or joins the one already queued or running for the tenant. */
export function startReindex(deps: StartJobDeps, tenantId: string, mode: 'full' | 'settings_only', reason: string | null) {
  return startJob(deps, { tenantId, kind: 'reindex', params: { mode, reason }, first: buildGenerationJob, data: (jobRowId) => ({ tenantId, jobRowId, mode }) });
}
