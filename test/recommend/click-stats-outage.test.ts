import t from 'tap';
import { setupWithWorkers, eventually, noticesDelivered } from '../helpers/workers.js';
import { hideTable } from '../helpers/pg-fault.js';

/**
 * Click learning when a store's click statistics cannot be read (a Postgres error on their first
 * load): the search answers without click boosts, and that answer is not cached. The next search,
 * once the statistics can be read, loads them and the product shoppers choose goes first.
 */

// A long TTL: nothing in this file ages out of the cache; only what the fix changes keeps an answer out.
const { h } = await setupWithWorkers({ SEARCH_CACHE_TTL_MS: '3600000' });
const deps = h.api.deps;
const store = await h.tenant('click outage');
// The same products in a store with click learning off: the order without click boosts.
const plain = await h.tenant('click outage, no learning');
await deps
  .db('tenants')
  .where({ id: plain.id })
  .update({ settings: JSON.stringify({ ranking: { click_learning: false } }) });
const products = Array.from({ length: 6 }, (_, i) => ({ id: `k${i}`, name: { en: `Steel kettle ${i}` }, price: 20 + i, currency: 'USD' }));
for (const { id, key } of [store, plain]) {
  if ((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products } })).status !== 200) throw new Error('load failed');
  await eventually(async () => (await deps.repos.products.countUnindexed(id)) === 0, 20_000);
  // The load's first vectors: their notice, once this process holds the store's vectors, would drop its cached results mid-test.
  await eventually(async () => (await deps.vectors.count(id)) === products.length, 60_000, 100);
}
await noticesDelivered(deps);

const search = (key: string, q: string, debug = false) => h.api.call('POST', '/v1/search', { key, body: { q, debug } });
const lexical = (await search(plain.key, 'kettle')).body.ids as string[];
const chosen = lexical[lexical.length - 1];
// Shoppers of "kettle" choose the last product shown (what the click recompute writes).
await deps
  .db('click_stats')
  .insert({ tenant_id: store.id, query: 'kettle', product_id: chosen, clicks: 30, searches: 30, attractiveness: 0.9, examinations: 30 });

t.test('the first load of the click statistics fails, then they can be read again', async (t) => {
  t.ok(lexical.length >= 2 && lexical[0] !== chosen, `${lexical}`);
  const restore = await hideTable(deps.db, 'click_stats');
  let failed;
  let traced;
  try {
    failed = await search(store.key, 'kettle');
    traced = await search(store.key, 'kettle', true);
  } finally {
    await restore();
  }
  t.equal(failed.status, 200, JSON.stringify(failed.body).slice(0, 300));
  t.equal(failed.headers.get('x-search-cache'), 'miss');
  t.same(failed.body.ids, lexical, 'answered without click boosts');
  t.equal(traced.status, 200);
  t.match(
    traced.body.debug?.steps.find((s: { step: string }) => s.step === 'rerank'),
    { reason: 'click statistics failed', clicked: 0 },
  );

  const back = await search(store.key, 'kettle');
  t.equal(back.status, 200, JSON.stringify(back.body).slice(0, 300));
  t.equal(back.headers.get('x-search-cache'), 'miss', 'not the answer without click boosts from the cache');
  t.equal(back.body.ids?.[0], chosen, `the product shoppers choose first: ${back.body.ids}`);

  const again = await search(store.key, 'kettle');
  t.equal(again.headers.get('x-search-cache'), 'hit', 'the full answer is cached');
  t.same(again.body.ids, back.body.ids);
});
