import { defineStage } from '../define-stage.js';
import { learnEventsJob } from '../../shared/vectors/index.js';
import { WINDOW_DAYS } from '../../shared/recommend/index.js';
import { computeSimilarLists } from './similar-lists.js';

/**
 * Recomputes one store's co-views (also_viewed), trends (trending) and position-bias-corrected
 * click statistics (click learning) from its events, and its similar lists from its vectors
 * (similar-lists.ts), each replaced in one transaction, then tells
 * the API processes (signals notice). With no store (the schedule), fans out one job per store
 * with events in the window. Re-runnable: a recompute from the same events gives the same rows.
 * Job id: learn-<tenant>-<time bucket>.
 */
export const learnEvents = defineStage({
  ...learnEventsJob,
  async run({ data, deps, progress }) {
    const signals = deps.repos.signals;
    if (!data.tenantId) {
      const tenants = await signals.tenantsWithEvents(new Date(Date.now() - WINDOW_DAYS * 86400_000));
      const bucket = Math.floor(Date.now() / deps.config.vectors.recomputeEveryMs);
      for (const tenantId of tenants) await deps.queues.enqueue(learnEvents, { tenantId, bucket });
      return { tenants: tenants.length };
    }
    const coViews = await signals.recomputeCoViews(data.tenantId);
    const trends = await signals.recomputeTrends(data.tenantId);
    const clicks = await signals.recomputeClicks(data.tenantId);
    const similar = await computeSimilarLists(deps, data.tenantId, (share) => progress(Math.min(1, share)));
    await deps.notices.publish('signals', data.tenantId);
    return { coViews, trends, clicks, similar: similar.listed, similarReused: similar.reused };
  },
});
