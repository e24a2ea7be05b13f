import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import type { EngineQuery, EngineResult } from '../../shared/engines/lexical/port.js';

// The engine statement's shortcuts (issue 20) give the counts the plain statement gives: a query
// without words narrows by every filter and counts each facet under the others; a late filter
// leaves its facet's counts whole; a several-word query with few strong matches leaves its facets
// to the fallback, which counts them even when it keeps the all-words answer. Result cache off.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200', SEARCH_CACHE_TTL_MS: '0' });
const { id: tenantId, key } = await h.tenant();
const p = (id: string, name: string, brand: string, price: number, inStock = true) => ({
  id,
  name: { en: name },
  brand,
  price,
  currency: 'USD',
  in_stock: inStock,
});
await loadProducts(h, key, tenantId, [
  p('a1', 'Acme desk lamp', 'Acme', 10),
  p('a2', 'Acme floor lamp', 'Acme', 20, false),
  p('a3', 'Acme walnut table', 'Acme', 30),
  p('b1', 'Bolt desk lamp', 'Bolt', 40),
  p('b2', 'Bolt office chair', 'Bolt', 50),
  p('c1', 'Corvo bookshelf', 'Corvo', 60),
]);

const engine = h.api.deps.engine;
const search = engine.search.bind(engine);
const answers: Array<{ q: EngineQuery; res: EngineResult }> = [];
engine.search = async (q: EngineQuery) => {
  const res = await search(q);
  answers.push({ q, res });
  return res;
};
type Facet = { name: string; buckets?: Array<{ value: string; count: number }>; min?: number | null; max?: number | null };
const get = async (path: string) => (await h.api.call('GET', path, { key })).body as { ids: string[]; total: number; facets: Facet[] };
const facet = (body: { facets: Facet[] }, name: string) => body.facets.find((f) => f.name === name);
const counts = (f: Facet | undefined) => Object.fromEntries((f?.buckets ?? []).map((b) => [b.value, b.count]));

t.test('without words: the filters narrow the products, each facet counts under the other filters', async (t) => {
  const body = await get('/v1/search?filter[brand]=Acme&facets=brand,in_stock,price');
  t.same([...body.ids].sort(), ['a1', 'a2', 'a3']);
  t.equal(body.total, 3);
  t.same(counts(facet(body, 'brand')), { Acme: 3, Bolt: 2, Corvo: 1 }, 'the whole store: the brand filter is the facet’s own');
  t.same(counts(facet(body, 'in_stock')), { true: 2, false: 1 }, 'under the brand filter');
  t.match(facet(body, 'price'), { min: 10, max: 30 });
  const two = await get('/v1/search?filter[brand]=Acme&filter[in_stock]=true&filter[price][gte]=15&facets=brand,in_stock,price');
  t.same(two.ids, ['a3']);
  t.same(counts(facet(two, 'brand')), { Acme: 1, Bolt: 2, Corvo: 1 }, 'in stock from 15: a3, b1, b2, c1');
  t.same(counts(facet(two, 'in_stock')), { true: 1, false: 1 }, 'Acme from 15: a2 and a3');
  t.match(facet(two, 'price'), { min: 10, max: 30 }, 'Acme in stock: a1 and a3');
  const none = await get('/v1/search?filter[brand]=Nobody&facets=brand,in_stock');
  t.equal(none.total, 0);
  t.same(counts(facet(none, 'brand')), { Acme: 3, Bolt: 2, Corvo: 1 });
  t.same(counts(facet(none, 'in_stock')), {});
});

t.test('with words, a late filter keeps its facet whole and ranks only what it keeps', async (t) => {
  const body = await get('/v1/search?q=lamp&filter[in_stock]=true&facets=in_stock,brand');
  t.same([...body.ids].sort(), ['a1', 'b1']);
  t.same(counts(facet(body, 'in_stock')), { true: 2, false: 1 }, 'every lamp');
  t.same(counts(facet(body, 'brand')), { Acme: 1, Bolt: 1 }, 'the lamps in stock');
});

t.test('few strong matches: the facets are counted once, over what the answer shows', async (t) => {
  answers.length = 0;
  const filled = await get('/v1/search?q=walnut%20lamp&facets=brand');
  t.same([...filled.ids].sort(), ['a1', 'a2', 'a3', 'b1'], 'no product has both words: the fallback fills in');
  t.equal(filled.total, 4);
  t.same(counts(facet(filled, 'brand')), { Acme: 3, Bolt: 1 }, 'over the any-word matches');
  t.ok(answers[0].res.facetsDeferred, 'the all-words statement left them out');
  t.equal(answers.length, 2);

  answers.length = 0;
  const kept = await get('/v1/search?q=office%20chair&facets=brand,price');
  t.same(kept.ids, ['b2'], 'one strong match, nothing more with either word');
  t.same(counts(facet(kept, 'brand')), { Bolt: 1 }, 'counted after all');
  t.match(facet(kept, 'price'), { min: 50, max: 50 });
  t.equal(answers.length, 3, 'all words, any word, then the facets');
});
