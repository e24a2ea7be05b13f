import { z } from 'zod';
import type { Deps } from '../../shared/deps.js';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { tenantPriority } from '../../shared/platform/queue/fairness.js';
import { indexProductsJob } from '../../shared/catalog/catalog.jobs.js';
import { SWEEP_GRACE_MS } from '../../shared/catalog/batch.js';

const BATCH = 1000;
/** Every state in which a queued index job will still run. */
const LIVE = ['waiting', 'prioritized', 'active', 'delayed', 'waiting-children'] as const;

/**
 * Re-queues indexing for every product whose stored version is ahead of its indexed version
 * and that no live index job covers, once it has waited `graceMs` (its batch's enqueue takes
 * milliseconds): an enqueue lost when an API process died after its commit or when Redis was
 * down, jobs lost with a Redis that restarted empty, a derived write lost in a database crash.
 * Runs on a schedule and when the workers' Redis comes back (see index.ts); at most `limit`
 * products a run. A product covered twice is harmless: indexing is an upsert by product id.
 */
export const sweepUnindexed = defineStage({
  // Its own queue: a sweep never takes one of the catalog workers' slots from a batch.
  queue: 'maintenance',
  name: 'sweep-unindexed',
  schema: z.object({
    graceMs: z.number().int().min(0).default(SWEEP_GRACE_MS),
    limit: z.number().int().min(1).max(100_000).default(20_000),
    run: z.string().optional(),
  }),
  jobId: (d) => `sweep-unindexed-${d.run ?? newId('run')}`,
  attempts: 2,
  async run({ data, deps }) {
    // Jobs first, then products: a job that finishes in between leaves nothing stale behind it.
    const covered = await liveIndexJobs(deps);
    const stale = await deps.repos.products.stale(data.graceMs, data.limit + covered.size);
    const rows = stale.filter((r) => !covered.has(`${r.tenant_id}\u0000${r.product_id}`)).slice(0, data.limit);
    const byTenant = new Map<string, string[]>();
    for (const r of rows) {
      const ids = byTenant.get(r.tenant_id) ?? [];
      ids.push(r.product_id);
      byTenant.set(r.tenant_id, ids);
    }
    let batches = 0;
    for (const [tenantId, ids] of byTenant) {
      for (let i = 0; i < ids.length; i += BATCH) {
        const priority = await tenantPriority(deps.redis, deps.config.queuePrefix, 'catalog', tenantId);
        await deps.queues.enqueue(indexProductsJob, { tenantId, batchId: newId('sweep'), ids: ids.slice(i, i + BATCH), deletes: [] }, { priority });
        batches++;
      }
    }
    if (rows.length) deps.logger.warn('unindexed products re-queued', { products: rows.length, tenants: byTenant.size, batches });
    return { products: rows.length, tenants: byTenant.size, batches, queued_elsewhere: stale.length - rows.length };
  },
});

/** tenant + NUL + product id of every product a live index job will (re)index. */
async function liveIndexJobs(deps: Deps): Promise<Set<string>> {
  const jobs = await deps.queues.get(indexProductsJob.queue).getJobs([...LIVE], 0, -1);
  const covered = new Set<string>();
  for (const job of jobs) {
    const input = job?.name === indexProductsJob.name ? (job.data?.input as { tenantId?: string; ids?: string[] } | undefined) : undefined;
    for (const id of input?.ids ?? []) covered.add(`${input!.tenantId}\u0000${id}`);
  }
  return covered;
}
