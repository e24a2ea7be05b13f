import type { Queues } from '../platform/queue/queues.js';
import { indexProductsJob } from '../catalog/index.js';

/**
 * Re-indexes products whose served translations changed, through the catalog pipeline (so a new
 * translation reaches search like any catalog change). `batchId` makes the enqueue idempotent.
 */
export async function reindexProducts(queues: Pick<Queues, 'enqueue'>, tenantId: string, productIds: string[], batchId: string): Promise<void> {
  const ids = [...new Set(productIds)];
  for (let i = 0; i < ids.length; i += 1000) {
    await queues.enqueue(indexProductsJob, { tenantId, batchId: `${batchId}-${i / 1000}`, ids: ids.slice(i, i + 1000), deletes: [] });
  }
}
