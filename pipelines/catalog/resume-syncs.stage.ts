import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { resumeSyncCleanups } from '../../shared/catalog/sync-resume.js';

/**
 * Starts again the cleanup of completed full syncs whose finish-sync failed for good or was never
 * queued, and settles those whose job was canceled (see resumeSyncCleanups): until it ends, the
 * unsent products stay and the sync_id stays taken. One that keeps failing is restarted with a
 * growing wait, 10 times at most, then given up (logged once at error level). Re-runnable: a restarted cleanup resumes from its checkpoint, one job id per jobs row.
 * Runs every SWEEP_EVERY_MS and when the workers' Redis comes back. Job id: resume-syncs-<run>.
 */
export const resumeSyncs = defineStage({
  queue: 'maintenance',
  name: 'resume-syncs',
  schema: z.object({ graceMs: z.number().int().min(0).default(60_000), run: z.string().optional() }),
  jobId: (d) => `resume-syncs-${d.run ?? newId('run')}`,
  attempts: 2,
  async run({ data, deps, signal }) {
    const { givenUp, ...out } = await resumeSyncCleanups(deps, data.graceMs, signal);
    if (out.resumed + out.started + out.settled) deps.logger.warn('full-sync cleanups started again or settled', out);
    for (const g of givenUp) deps.logger.error('full-sync cleanup given up: its job stays failed until an operator acts', g);
    return { ...out, givenUp: givenUp.length };
  },
});
