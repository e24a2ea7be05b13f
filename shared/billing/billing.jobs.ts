import { z } from 'zod';
import { defineJob } from '../platform/queue/define-job.js';

export const BILLING_QUEUE = 'billing';

/** Applies one stored provider event (keyed by provider and event id: a redelivery is one job). */
export const applyBillingEventJob = defineJob({
  queue: BILLING_QUEUE,
  name: 'apply-billing-event',
  schema: z.object({ provider: z.enum(['stripe', 'paddle', 'mock']), eventId: z.string().min(1).max(255) }),
  jobId: (d) => `billing-event-${d.provider}-${d.eventId.replace(/[^A-Za-z0-9_-]/g, '_')}`,
});

/**
 * Finishes a checkout's business at the provider: expires a `superseded` one, cancels the
 * subscription of a `replaced` one (keyed by checkout and status: each happens once per checkout).
 */
export const closeCheckoutJob = defineJob({
  queue: BILLING_QUEUE,
  name: 'close-checkout',
  schema: z.object({ checkoutId: z.string().min(1).max(64), status: z.enum(['superseded', 'replaced']) }),
  jobId: (d) => `close-checkout-${d.checkoutId.replace(/[^A-Za-z0-9_-]/g, '_')}-${d.status}`,
  // Exponential from 0.5 s: about four minutes of a provider outage; requeue-billing-events retries after that.
  attempts: 10,
});
