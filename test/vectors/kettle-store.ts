import type { Harness } from '../helpers/harness.js';
import { eventually, noticesDelivered } from '../helpers/workers.js';

/**
 * A store with hybrid search on and 13 products (three kettles, ten mugs) loaded and embedded by
 * the harness's workers: what the vector outage tests search.
 */
export async function hybridKettleStore(h: Harness, name: string): Promise<{ tenantId: string; key: string }> {
  const deps = h.api.deps;
  const { id: tenantId, key } = await h.tenant(name);
  await deps
    .db('tenants')
    .where({ id: tenantId })
    .update({ settings: { ranking: { hybrid_search: true } } });
  const products = [
    ...['Steel kettle', 'Glass kettle', 'Travel kettle'].map((name, i) => ({ id: `k${i}`, name: { en: name }, price: 20 + i, currency: 'USD' })),
    ...Array.from({ length: 10 }, (_, i) => ({ id: `m${i}`, name: { en: `Coffee mug ${i}` }, price: 5 + i, currency: 'USD' })),
  ];
  if ((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products } })).status !== 200) throw new Error('load failed');
  await eventually(async () => (await deps.vectors.count(tenantId)) === products.length, 60_000, 100);
  // Their notice reaches this process before its first search holds the store's vectors (a reload then would drop cached results).
  await noticesDelivered(deps);
  return { tenantId, key };
}
