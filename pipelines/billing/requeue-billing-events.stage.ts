import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { applyBillingEventJob } from '../../shared/billing/index.js';
import { queueCheckoutCloses } from './queue-checkout-closes.js';

/**
 * Queues again the stored provider events never tried over `unappliedAfterMs` after they came: the
 * webhook stores an event before queueing it, and that enqueue is lost when Redis is down and the
 * API process goes before Redis is back (or Redis restarts empty). Runs every SWEEP_EVERY_MS and
 * when the workers' Redis comes back, so such an event waits minutes, not until the daily
 * reconcile-billing (which still retries the events left for later, such as plan_unknown).
 * Re-runnable: an event is applied once (apply-billing-event checks), one job id per event.
 * Also queues again close-checkout for checkouts still to close at the provider after
 * `unappliedAfterMs` (their enqueue lost, or their job failed for good while the provider was down).
 */
export const requeueBillingEvents = defineStage({
  queue: 'billing',
  name: 'requeue-billing-events',
  schema: z.object({ run: z.string().optional(), unappliedAfterMs: z.number().int().min(0).default(10_000) }),
  jobId: (d) => `requeue-billing-events-${d.run ?? newId('run')}`,
  attempts: 2,
  async run({ data, deps }) {
    let requeued = 0;
    for (const e of await deps.repos.billingEvents.unapplied(data.unappliedAfterMs, 500, true)) {
      if (e.provider === 'manual') continue;
      if ((await deps.queues.requeue(applyBillingEventJob, { provider: e.provider, eventId: e.event_id })) !== 'held') requeued++;
    }
    if (requeued) deps.logger.warn('billing events re-queued', { requeued });
    const closes = await queueCheckoutCloses(deps, data.unappliedAfterMs);
    if (closes) deps.logger.warn('checkout closes re-queued', { closes });
    return { requeued, closes };
  },
});
