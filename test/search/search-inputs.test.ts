import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

// Inputs of /v1/search at their edges, on a small store with mapped attributes and stock of both kinds.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
const mapping = ['Size', 'Color'].map((raw) => ({ raw_name: raw, canonical_name: raw.toLowerCase(), facet: true }));
await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: mapping } });
const shoe = (id: string, inStock: boolean, attributes: Record<string, unknown>) => ({
  id,
  name: { en: `Trail shoe ${id}` },
  price: 50,
  currency: 'USD',
  brand: 'Nike',
  in_stock: inStock,
  attributes,
});
await loadProducts(h, key, tenantId, [
  shoe('s1', true, { Size: '42', Color: 'Red' }),
  shoe('s2', true, { Size: '44', Color: 'Blue' }),
  shoe('s3', false, { Size: '42', Color: 'Red' }),
]);
const get = (qs: string) => h.api.call('GET', `/v1/search?q=shoe&${qs}`, { key });
const post = (body: Record<string, unknown>) => h.api.call('POST', '/v1/search', { key, body: { q: 'shoe', ...body } });
const sorted = (res: { body: { ids: string[] } }) => [...res.body.ids].sort();
const buckets = (res: { body: { facets: Array<{ name: string; buckets?: Array<{ value: string; count: number }> }> } }, name: string) =>
  Object.fromEntries((res.body.facets.find((f) => f.name === name)?.buckets ?? []).map((b) => [b.value, b.count]));

t.test('in_stock true and false together is either stock: no product is left out', async (t) => {
  const all = ['s1', 's2', 's3'];
  for (const res of [await get('filter[in_stock]=true,false&facets=color'), await post({ filters: { in_stock: ['false', 'true'] }, facets: ['color'] })]) {
    t.equal(res.status, 200);
    t.same(sorted(res), all, 'as a value list does for any other filter');
    t.equal(res.body.total, 3);
    t.same(buckets(res, 'color'), { Red: 2, Blue: 1 }, "the other facets count the out-of-stock product's values too");
  }
  t.same(sorted(await get('filter[in_stock]=true')), ['s1', 's2'], 'one value still filters');
  t.same(sorted(await get('filter[in_stock]=false')), ['s3']);
  t.equal((await get('filter[in_stock]=true,maybe')).status, 400, 'a value other than true and false is still refused');
});

t.test("a POST's refused filter, facet or lang is named at its body field, a GET's at its query parameter", async (t) => {
  const at = (res: { body: { error: { details: Array<{ in: string; field: string; code: string }> } } }) =>
    res.body.error.details.map((d) => [d.in, d.field, d.code]);
  const cases: Array<[Record<string, unknown>, string, Array<[string, string, string]>, Array<[string, string, string]>]> = [
    [{ filters: { colour: ['Red'] } }, 'filter[colour]=Red', [['body', 'filters.colour', 'unknown_filter']], [['query', 'filter[colour]', 'unknown_filter']]],
    [{ filters: { price: ['10'] } }, 'filter[price]=10', [['body', 'filters.price', 'invalid_filter']], [['query', 'filter[price]', 'invalid_filter']]],
    [{ facets: ['colour'] }, 'facets=colour', [['body', 'facets', 'unknown_facet']], [['query', 'facets', 'unknown_facet']]],
    [{ lang: 'fr' }, 'lang=fr', [['body', 'lang', 'invalid_value']], [['query', 'lang', 'invalid_value']]],
  ];
  for (const [body, qs, posted, got] of cases) {
    const p = await post(body);
    t.equal(p.status, 400, JSON.stringify(body));
    t.same(at(p), posted, JSON.stringify(body));
    t.notMatch(p.body.error.message, /filter\[\w+\]:/, `the message names the body's field too: ${p.body.error.message}`);
    const g = await get(qs);
    t.equal(g.status, 400, qs);
    t.same(at(g), got, qs);
  }
});

t.test('a facet named twice is answered once', async (t) => {
  const names = (res: { body: { facets: Array<{ name: string }> } }) => res.body.facets.map((f) => f.name);
  const g = await get('facets=color,brand,color');
  t.equal(g.status, 200);
  t.same(names(g), ['color', 'brand']);
  const p = await post({ facets: ['brand', 'brand', 'size', 'brand'] });
  t.equal(p.status, 200);
  t.same(names(p), ['brand', 'size']);
  t.same(buckets(p, 'brand'), { Nike: 3 });
});

t.test('an empty facets list asks for no facets, on GET as on POST', async (t) => {
  const names = (res: { body: { facets: Array<{ name: string }> } }) => res.body.facets.map((f) => f.name);
  t.same(names(await post({ facets: [] })), []);
  t.same(names(await get('facets=')), [], 'facets= is the empty list');
  t.same(names(await get('facets=,')), []);
  t.ok(names(await get('page=1')).includes('color'), 'without facets, the default facets');
});

t.test('filter[__proto__] is an unknown filter, not a write to every object of the API process', async (t) => {
  const other = await h.tenant('Another store');
  try {
    for (const qs of ['filter[__proto__][gte]=7', 'filter[__proto__][lte]=7&filter[price][gte]=1', 'filter[__proto__]=a,b']) {
      const res = await get(qs);
      t.equal(res.status, 400, qs);
      t.same(
        res.body.error?.details?.map((d: { field: string; code: string }) => [d.field, d.code]),
        [['filter[__proto__]', 'unknown_filter']],
        qs,
      );
    }
    // The API runs in this process: a write to Object.prototype would show here.
    t.equal(({} as Record<string, unknown>).gte, undefined, 'Object.prototype has no gte');
    t.equal(({} as Record<string, unknown>).lte, undefined, 'nor lte');
    t.equal((await h.api.call('GET', '/v1/search?q=shoe', { key: other.key })).status, 200, "another store's search still answers");
    t.equal((await h.api.call('GET', '/v1/keys', { key: other.key })).status, 200, 'and its other calls');
  } finally {
    // On the old code the request polluted Object.prototype; undo it so the harness can close.
    delete (Object.prototype as Record<string, unknown>).gte;
    delete (Object.prototype as Record<string, unknown>).lte;
  }
});

t.test('an integer query parameter is decimal digits: 0x10, 1e1, " 2", 0b11 and 2.0 are 400 naming it, on every route', async (t) => {
  const refused = async (path: string, field: string) => {
    const res = await h.api.call('GET', path, { key });
    t.equal(res.status, 400, `${path}: ${JSON.stringify(res.body).slice(0, 200)}`);
    t.equal(res.body.error?.code, 'validation_failed', path);
    t.same(
      res.body.error?.details?.map((d: { in: string; field: string }) => [d.in, d.field]),
      [['query', field]],
      path,
    );
  };
  for (const page of ['0x10', '1e1', '%202', '2%20', '2.0', '%2B2', '0b11', '', '-1']) await refused(`/v1/search?q=shoe&page=${page}`, 'page');
  for (const perPage of ['0b11', '0o7', '1e1', 'Infinity']) await refused(`/v1/search?q=shoe&per_page=${perPage}`, 'per_page');
  await refused('/v1/search?q=shoe&filter[price][gte]=0x10', 'filter[price][gte]');
  await refused('/v1/search?q=shoe&filter[price][lte]=%201', 'filter[price][lte]');
  await refused('/v1/suggest?q=sh&limit=0x5', 'limit');
  await refused('/v1/suggest?q=sh&products=1e0', 'products');
  await refused('/v1/recommend?type=trending&limit=1e1', 'limit');
  await refused('/v1/products?limit=0x10', 'limit');
  await refused('/v1/jobs?limit=%2010', 'limit');
  const fine = await get('page=2&per_page=1');
  t.equal(fine.status, 200, 'plain digits still work');
  t.same([fine.body.page, fine.body.per_page, fine.body.ids.length], [2, 1, 1]);
  t.equal((await get('page=0002&filter[price][gte]=-1.5&filter[price][lte]=1e3')).status, 200, 'leading zeros; a range bound in decimal writing');
  t.equal((await h.api.call('GET', '/v1/products?limit=3', { key })).status, 200);
});

t.test('POST filters.__proto__ is an unknown filter named at its field, as filter[__proto__] is on GET', async (t) => {
  for (const raw of [
    '{"q":"shoe","filters":{"__proto__":["a"]}}',
    '{"q":"shoe","filters":{"__proto__":{"gte":7}}}',
    '{"q":"shoe","filters":{"size":["42"],"__proto__":"x"}}',
    '{"q":"shoe","filters":{"__proto__":true}}',
  ]) {
    // A raw body: an object literal's __proto__ would be its prototype, not a key the request sends.
    const res = await h.api.call('POST', '/v1/search', { key, rawBody: raw, headers: { 'content-type': 'application/json' } });
    t.equal(res.status, 400, raw);
    t.equal(res.body.error?.code, 'unknown_filter', raw);
    t.same(
      res.body.error?.details?.map((d: { in: string; field: string; code: string }) => [d.in, d.field, d.code]),
      [['body', 'filters.__proto__', 'unknown_filter']],
      raw,
    );
  }
  const shape = await h.api.call('POST', '/v1/search', {
    key,
    rawBody: '{"q":"shoe","filters":{"__proto__":{"gte":"x"}}}',
    headers: { 'content-type': 'application/json' },
  });
  t.equal(shape.status, 400, 'a value of no filter shape is refused too');
  t.equal(({} as Record<string, unknown>).gte, undefined, 'Object.prototype has no gte');
  t.same(sorted(await post({ filters: { size: ['42'] } })), ['s1', 's3'], 'other filters as before');
});

t.test('a filter list holds at most 100 values of at most 200 characters, on GET as on POST', async (t) => {
  const values = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? '42' : `v${i}`));
  const long = 'x'.repeat(200);
  const at = (res: { body: { error?: { details?: Array<{ in: string; field: string; code: string }> } } }) =>
    res.body.error?.details?.map((d) => [d.in, d.field, d.code]);
  const ok = await get(`filter[size]=${values(100).join(',')}`);
  t.equal(ok.status, 200, 'GET: 100 values');
  t.same(sorted(ok), ['s1', 's3']);
  t.equal((await get(`filter[size]=${long},42`)).status, 200, 'GET: a value of 200 characters');
  const many = await get(`filter[size]=${values(101).join(',')}`);
  t.equal(many.status, 400, 'GET: 101 values');
  t.same(at(many), [['query', 'filter[size]', 'too_long']]);
  t.match(many.body.error?.message, /100 values/);
  const longer = await get(`filter[size]=42,${long}y`);
  t.equal(longer.status, 400, 'GET: a value of 201 characters');
  t.same(at(longer), [['query', 'filter[size]', 'too_long']]);
  t.equal((await get(`filter[size]=${values(100).join(',')},,%20,`)).status, 200, 'empty items are no values');

  const okPost = await post({ filters: { size: values(100) } });
  t.equal(okPost.status, 200, 'POST: 100 values');
  t.same(sorted(okPost), ['s1', 's3']);
  t.equal((await post({ filters: { size: [long, '42'] } })).status, 200, 'POST: a value of 200 characters');
  const manyPost = await post({ filters: { size: values(101) } });
  t.equal(manyPost.status, 400, 'POST: 101 values');
  t.same(at(manyPost), [['body', 'filters.size', 'too_long']]);
  t.match(manyPost.body.error?.message, /100 values/);
  const longerPost = await post({ filters: { size: ['42', `${long}y`] } });
  t.equal(longerPost.status, 400, 'POST: a value of 201 characters');
  t.same(at(longerPost), [['body', 'filters.size.1', 'too_long']]);
});
