import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { ABANDONED_BUILD_MS, dropAbandonedBuilds } from '../../shared/maintenance/index.js';

/**
 * Drops index generations left building by a reindex that has finished (see dropAbandonedBuilds):
 * the serving generation stays, and writes stop going to the dropped one. Idempotent: a second run
 * finds nothing. Runs on the maintenance schedule. Job id: sweep-builds-<run>.
 */
export const sweepBuilds = defineStage({
  queue: 'maintenance',
  name: 'sweep-builds',
  schema: z.object({ olderThanMs: z.number().int().min(0).default(ABANDONED_BUILD_MS), run: z.string().optional() }),
  jobId: (d) => `sweep-builds-${d.run ?? newId('run')}`,
  attempts: 2,
  async run({ data, deps }) {
    const dropped = await dropAbandonedBuilds(deps, data.olderThanMs);
    if (dropped.length) deps.logger.warn('abandoned index generations dropped', { dropped });
    return { dropped };
  },
});
