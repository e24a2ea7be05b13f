import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { deliverJob } from '../../shared/notifications/index.js';

/**
 * Queues again the next attempt of every pending delivery that is over `graceMs` late: a
 * delivery recorded while Redis was down (its first attempt could not be queued), a retry lost
 * with a Redis that restarted empty, an attempt whose job failed for good while the database
 * was down. Runs on a schedule and when the workers' Redis comes back (see index.ts). A job
 * still held under the attempt's id is left alone (BullMQ ignores the add), a failed one is
 * retried; an attempt already made is never sent again (Notifier.attempt checks).
 */
export const requeueDeliveries = defineStage({
  queue: 'notifications',
  name: 'requeue-deliveries',
  schema: z.object({
    graceMs: z.number().int().min(0).default(10_000),
    limit: z.number().int().min(1).max(100_000).default(5_000),
    run: z.string().optional(),
  }),
  jobId: (d) => `requeue-deliveries-${d.run ?? newId('run')}`,
  attempts: 2,
  async run({ data, deps }) {
    let requeued = 0;
    for (const d of await deps.repos.webhookDeliveries.overdue(data.graceMs, data.limit)) {
      if ((await deps.queues.requeue(deliverJob, { deliveryId: d.id, attempt: d.attempts + 1 })) !== 'held') requeued++;
    }
    if (requeued) deps.logger.warn('notification deliveries re-queued', { requeued });
    return { requeued };
  },
});
