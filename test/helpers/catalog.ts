import type { Harness } from './harness.js';
import { eventually } from './workers.js';

/** Sends products through the public batch API and waits until the engine has all of them and the vocabulary is built. */
export async function loadProducts(h: Harness, key: string, tenantId: string, products: unknown[]): Promise<void> {
  for (let i = 0; i < products.length; i += 1000) {
    const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products.slice(i, i + 1000) } });
    if (res.status !== 200 || res.body.errors.length) throw new Error(`load failed: ${JSON.stringify(res.body).slice(0, 500)}`);
  }
  const db = h.api.deps.db;
  await eventually(async () => (await h.api.deps.repos.products.countUnindexed(tenantId)) === 0, 20_000);
  await eventually(async () => {
    const [{ n }] = await db('search_vocab').where({ tenant_id: tenantId }).count({ n: '*' });
    return Number(n) > 0;
  }, 20_000);
}

/** The product ids of a store's first search page for a query, in order (GET /v1/search with the store's key). */
export function searchIds(h: Harness, key: string): (q: string) => Promise<string[]> {
  return async (q) => ((await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key })).body as { ids: string[] }).ids;
}
