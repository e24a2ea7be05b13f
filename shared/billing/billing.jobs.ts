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
