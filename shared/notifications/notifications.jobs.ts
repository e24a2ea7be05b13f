import { z } from 'zod';
import { defineJob } from '../platform/queue/define-job.js';

/** One delivery attempt; a failed attempt queues the next one itself, delayed (BullMQ retries only our own errors, a database down say; the receiver's failures back off our way, over about a day). */
export const deliverJob = defineJob({
  queue: 'notifications',
  name: 'deliver-notification',
  schema: z.object({ deliveryId: z.string().min(1), attempt: z.number().int().min(1) }),
  jobId: (d) => `deliver-${d.deliveryId}-${d.attempt}`,
  attempts: 3,
});
