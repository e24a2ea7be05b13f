import type { Deps } from '../../shared/deps.js';
import { closeCheckoutJob } from '../../shared/billing/index.js';

/**
 * Queues close-checkout for the checkouts with provider work left over `olderThanMs` (null: any; one
 * store's, or all): the rows are the outbox, so a lost enqueue or a job that failed for good (provider down
 * longer than its attempts) is queued again. A job still held under its id is left alone, a failed
 * one is retried.
 */
export async function queueCheckoutCloses(deps: Pick<Deps, 'queues' | 'repos'>, olderThanMs: number | null, tenantId?: string): Promise<number> {
  let queued = 0;
  for (const row of await deps.repos.checkouts.toClose(olderThanMs, tenantId)) {
    const data = { checkoutId: row.id, status: row.status as 'superseded' | 'replaced' };
    if ((await deps.queues.requeue(closeCheckoutJob, data)) !== 'held') queued++;
  }
  return queued;
}
