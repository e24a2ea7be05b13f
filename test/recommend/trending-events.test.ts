import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const deps = h.api.deps;
const { id: tenantId, key } = await h.tenant('trending events');
const product = (id: string, popularity: number) => ({
  id,
  name: { en: `Desk lamp ${id}` },
  categories: [{ id: 'lamps', path: [{ en: 'Lamps' }] }],
  price: 10,
  currency: 'SAR',
  popularity,
});
await loadProducts(h, key, tenantId, [product('loved', 1), product('flooded', 1), product('best-seller', 9)]);
const send = async (events: unknown[]) => {
  const res = await h.api.call('POST', '/v1/events', { key, body: { events } });
  if (res.status !== 202) throw new Error(`events: ${res.status}`);
};

t.test('one session sending the same view again and again counts once in trending', async (t) => {
  // Five shoppers view `loved` once each; one session (a reload loop, a script with the public key) views `flooded` 200 times.
  await send(Array.from({ length: 5 }, (_, i) => ({ type: 'view', session: `shopper-${i}`, product_id: 'loved' })));
  await send(Array.from({ length: 200 }, () => ({ type: 'view', session: 'loop', product_id: 'flooded' })));
  await deps.events.flush();
  await deps.repos.signals.recomputeTrends(tenantId);
  await deps.notices.publish('signals', tenantId);
  const res = await h.api.call('GET', '/v1/recommend?type=trending&limit=3', { key });
  t.equal(res.status, 200);
  t.same(res.body.ids.slice(0, 2), ['loved', 'flooded'], 'five shoppers outweigh one session');
  t.equal(res.body.source, 'popularity');
});

t.test('events naming products not in the catalog take no place in trending or also_viewed', async (t) => {
  // Five ids the store never had, each viewed by ten sessions: more than `loved` and `flooded` got.
  const ghosts = Array.from({ length: 5 }, (_, g) =>
    Array.from({ length: 10 }, (_, i) => ({ type: 'view', session: `ghost-${g}-${i}`, product_id: `ghost-${g}` })),
  );
  await send(ghosts.flat());
  // One session views `loved` with `flooded`; another views `loved` with twenty unknown ids.
  await send([
    { type: 'view', session: 'pair', product_id: 'loved' },
    { type: 'view', session: 'pair', product_id: 'flooded' },
  ]);
  await send([
    { type: 'view', session: 'phantoms', product_id: 'loved' },
    ...Array.from({ length: 20 }, (_, i) => ({ type: 'view', session: 'phantoms', product_id: `phantom-${i}` })),
  ]);
  await deps.events.flush();
  await deps.repos.signals.recomputeTrends(tenantId);
  await deps.repos.signals.recomputeCoViews(tenantId);
  await deps.notices.publish('signals', tenantId);
  const trending = await h.api.call('GET', '/v1/recommend?type=trending&limit=2', { key });
  t.same(trending.body.ids, ['loved', 'flooded'], 'the trending products of the catalog, not its best sellers');
  const also = await h.api.call('GET', '/v1/recommend?type=also_viewed&product_id=loved&limit=1', { key });
  t.same(also.body, { ...also.body, source: 'co_views', ids: ['flooded'] }, 'the co-viewed product kept among the 20');
  const kept = await deps.db('co_views').where({ tenant_id: tenantId }).whereLike('other_id', 'phantom-%').count({ n: '*' });
  t.equal(Number(kept[0].n), 0, 'no co-view rows for unknown products');
});
