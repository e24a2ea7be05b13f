import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

// Names and values of the attribute mapping are the store's words, never an object's built-in
// properties: a value_map looks a value up among its own entries only ("constructor" is a colour
// like any other), and `__proto__`, `constructor`... cannot name a facet (facets are looked up by name in
// plain objects: `__proto__` would be the search document's prototype, `constructor` a search's 500).
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const store = await h.tenant('mapping names');
const put = (items: unknown[]) => h.api.call('PUT', '/v1/attributes/mapping', { key: store.key, body: { items } });

t.test('a value the value_map does not list keeps its text, whatever it is', async (t) => {
  const res = await put([{ raw_name: 'Colour', canonical_name: 'color', facet: true, value_map: { rouge: 'Red' } }]);
  t.equal(res.status, 200, JSON.stringify(res.body));
  const shoe = (id: string, colour: string | string[]) => ({
    id,
    name: { en: `Runner shoe ${id}` },
    price: 50,
    currency: 'USD',
    attributes: { Colour: colour },
  });
  await loadProducts(h, store.key, store.id, [shoe('s1', 'rouge'), shoe('s2', 'constructor'), shoe('s3', ['toString', 'valueOf']), shoe('s4', '__proto__')]);
  const res2 = await h.api.call('GET', '/v1/search?q=shoe&facets=color', { key: store.key });
  t.equal(res2.status, 200, JSON.stringify(res2.body));
  const values = res2.body.facets[0].buckets.map((b: { value: string }) => b.value).sort();
  t.same(values, ['Red', '__proto__', 'constructor', 'toString', 'valueOf']);
  const filtered = await h.api.call('GET', '/v1/search?q=shoe&filter[color]=constructor', { key: store.key });
  t.same(
    filtered.body.hits.map((x: { id: string }) => x.id),
    ['s2'],
  );
});

t.test('__proto__, constructor and the other built-in properties of objects cannot name a facet', async (t) => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    const res = await put([{ raw_name: 'Size', canonical_name: name, facet: true }]);
    t.equal(res.status, 400, name);
    t.match(res.body.error, { code: 'validation_failed', details: [{ field: 'items.0.canonical_name', code: 'reserved_name' }] });
  }
  const now = await h.api.call('GET', '/v1/attributes/mapping', { key: store.key });
  t.same(
    now.body.items.map((i: { canonical_name: string }) => i.canonical_name),
    ['color'],
    'the mapping before stays',
  );
});
