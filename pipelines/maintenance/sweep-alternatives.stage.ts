import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';

/**
 * Deletes the synonym sets of alternatives (Typesense) that no process has written or used within
 * ALT_SET_RETENTION_HOURS: sets left by processes that have stopped (a deploy, a crash, a
 * scale-down) would otherwise stay until their store is dropped. A set found without a mark is marked
 * now and kept for the retention. A process still holding a deleted one writes it again on its next
 * search. Nothing to do on an engine that keeps none.
 * Idempotent: a second run finds nothing. Runs every PURGE_EVERY_MS. Job id: sweep-alternatives-<run>.
 */
export const sweepAlternatives = defineStage({
  queue: 'maintenance',
  name: 'sweep-alternatives',
  schema: z.object({ olderThanMs: z.number().int().min(0).optional(), run: z.string().optional() }),
  jobId: (d) => `sweep-alternatives-${d.run ?? newId('run')}`,
  attempts: 2,
  async run({ data, deps, signal }) {
    const olderThanMs = data.olderThanMs ?? deps.config.altSetRetentionHours * 3_600_000;
    const swept = await deps.engine.dropUnusedAlternatives?.(olderThanMs, signal);
    if (!swept) return { deleted: 0, kept: 0, skipped: true };
    if (swept.deleted || swept.unmarked) deps.logger.info('unused synonym sets of alternatives deleted', swept);
    return swept;
  },
});
