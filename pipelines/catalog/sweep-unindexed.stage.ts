import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { tenantPriority } from '../../shared/platform/queue/fairness.js';
import { indexProductsJob } from '../../shared/catalog/catalog.jobs.js';

const BATCH = 1000;

/**
 * Re-queues indexing for products whose latest version has waited longer than `graceMs` without
 * being indexed: an enqueue lost when an API process died after its commit, or a derived write
 * lost in a database crash. Runs on a schedule (see sweep.ts); at most `limit` products a run.
 */
export const sweepUnindexed = defineStage({
  // Its own queue: a sweep never takes one of the catalog workers' slots from a batch.
  queue: 'maintenance',
  name: 'sweep-unindexed',
  schema: z.object({ graceMs: z.number().int().min(0).default(120_000), limit: z.number().int().min(1).max(100_000).default(20_000), run: z.string().optional() }),
  jobId: (d) => `sweep-unindexed-${d.run ?? newId('run')}`,
  attempts: 2,
  async run({ data, deps }) {
    const rows = await deps.repos.products.stale(data.graceMs, data.limit);
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
    return { products: rows.length, tenants: byTenant.size, batches };
  },
});
