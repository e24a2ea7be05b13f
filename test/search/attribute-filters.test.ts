import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

// Attribute filters over values as stores send them: text ("8GB"), numbers as text ("42"), numbers, lists.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
const mapping = ['RAM', 'Size', 'Weight'].map((raw) => ({ raw_name: raw, canonical_name: raw.toLowerCase(), facet: true }));
await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: mapping } });
const p = (id: string, attributes: Record<string, unknown>) => ({ id, name: { en: `Trail shoe ${id}` }, price: 50, currency: 'USD', attributes });
await loadProducts(h, key, tenantId, [
  p('s1', { RAM: '8GB', Size: '42', Weight: 9 }),
  p('s2', { RAM: '16GB', Size: ['44', '45'], Weight: 9.5 }),
  p('s3', { Size: 'XL', Weight: 12 }),
  p('s4', {}),
]);
const get = (qs: string) => h.api.call('GET', `/v1/search?q=shoe&${qs}`, { key });
const ids = (res: { body: { ids: string[] } }) => [...res.body.ids].sort();

t.test('a range on an attribute matches the products whose value is a number in it; text never fails the search', async (t) => {
  const text = await get('filter[ram][gte]=8');
  t.equal(text.status, 200, 'a range over text values is no 500');
  t.same(ids(text), []);
  t.same(ids(await get('filter[size][gte]=43')), ['s2'], '"44" of the list ["44","45"] is in the range; "XL" is no number');
  t.same(ids(await get('filter[size][gte]=40&filter[size][lte]=42')), ['s1']);
  t.same(ids(await get('filter[weight][lte]=9.5')), ['s1', 's2']);
  const posted = await h.api.call('POST', '/v1/search', { key, body: { q: 'shoe', filters: { weight: { gte: 10 }, ram: { lte: 4 } } } });
  t.equal(posted.status, 200);
  t.same(ids(posted), []);
});

t.test('a numeric attribute filters by the value its facet bucket shows', async (t) => {
  const res = await get('facets=weight');
  const buckets = res.body.facets.find((f: { name: string }) => f.name === 'weight').buckets.map((b: { value: string }) => b.value);
  t.ok(buckets.includes('9'), `the bucket is "9" (${buckets})`);
  t.same(ids(await get('filter[weight]=9')), ['s1']);
  t.same(ids(await get('filter[weight]=9,12')), ['s1', 's3']);
  t.same(ids(await get('filter[size]=44')), ['s2'], 'text values as before');
});

t.test('a range reads numbers written in Arabic-Indic or Persian digits ("٥٢" is 52)', async (t) => {
  const store = await h.tenant('arabic digits');
  await h.api.call('PUT', '/v1/attributes/mapping', { key: store.key, body: { items: mapping } });
  await loadProducts(h, store.key, store.id, [p('a1', { Size: '٥٢', Weight: '٣٫٥' }), p('a2', { Size: '۴۰' }), p('a3', { Size: '54' })]);
  const range = async (qs: string) => ids(await h.api.call('GET', `/v1/search?q=shoe&${qs}`, { key: store.key }));
  t.same(await range('filter[size][gte]=50&filter[size][lte]=53'), ['a1']);
  t.same(await range('filter[size][lte]=45'), ['a2'], 'Persian digits');
  t.same(await range('filter[size][gte]=50'), ['a1', 'a3']);
  t.same(await range('filter[weight][gte]=3.5&filter[weight][lte]=3.5'), ['a1'], 'the Arabic decimal separator');
  const facet = await h.api.call('GET', '/v1/search?q=shoe&facets=size', { key: store.key });
  const values = facet.body.facets[0].buckets.map((b: { value: string }) => b.value).sort();
  t.same(values, ['54', '٥٢', '۴۰'], "the buckets show the store's own writing");
});

t.test('a built-in filter of the wrong shape is a 400 naming it', async (t) => {
  for (const [qs, field] of [
    ['filter[in_stock]=maybe', 'filter[in_stock]'],
    ['filter[brand][gte]=1', 'filter[brand]'],
    ['filter[category][lte]=3', 'filter[category]'],
    ['filter[price]=10', 'filter[price]'],
  ]) {
    const res = await get(qs);
    t.equal(res.status, 400, qs);
    t.equal(res.body.error.code, 'validation_failed', qs);
    t.same(
      res.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code]),
      [[field, 'invalid_filter']],
      qs,
    );
  }
  const posted = await h.api.call('POST', '/v1/search', { key, body: { q: 'shoe', filters: { in_stock: ['maybe'] } } });
  t.equal(posted.status, 400);
  t.same(ids(await get('filter[in_stock]=true')), ['s1', 's2', 's3', 's4'], 'true and false still work');
  t.same(ids(await get('filter[in_stock]=false')), []);
});

t.test('a mapping onto a built-in facet name is a 400 and changes nothing', async (t) => {
  const res = await h.api.call('PUT', '/v1/attributes/mapping', {
    key,
    body: { items: [...mapping, { raw_name: 'Maker', canonical_name: 'Brand', facet: true }] },
  });
  t.equal(res.status, 400);
  t.same(
    res.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code]),
    [['items.3.canonical_name', 'reserved_name']],
  );
  const now = (await h.api.call('GET', '/v1/attributes/mapping', { key })).body.items.map((i: { canonical_name: string }) => i.canonical_name);
  t.same(now, ['ram', 'size', 'weight'], 'the mapping before stays');
});

t.test('an Arabic store names its facets in Arabic: mapping, facet counts and filters by that name', async (t) => {
  const store = await h.tenant('arabic facet names');
  const items = [
    { raw_name: 'المقاس', canonical_name: 'المقاس', facet: true },
    { raw_name: 'Colour', canonical_name: 'لون', facet: true },
  ];
  const put = await h.api.call('PUT', '/v1/attributes/mapping', { key: store.key, body: { items } });
  t.equal(put.status, 200, JSON.stringify(put.body));
  const shoe = (id: string, attributes: Record<string, unknown>) => ({ id, name: { ar: `حذاء رياضي ${id}` }, price: 50, currency: 'SAR', attributes });
  await loadProducts(h, store.key, store.id, [shoe('b1', { المقاس: '42', Colour: 'أحمر' }), shoe('b2', { المقاس: '44', Colour: 'أسود' })]);
  const search = (qs: string) => h.api.call('GET', `/v1/search?q=${encodeURIComponent('حذاء')}&${qs}`, { key: store.key });
  const size = encodeURIComponent('المقاس');
  const faceted = await search(`facets=${size}`);
  t.equal(faceted.status, 200, JSON.stringify(faceted.body));
  t.same(
    faceted.body.facets
      .find((f: { name: string }) => f.name === 'المقاس')
      ?.buckets.map((b: { value: string }) => b.value)
      .sort(),
    ['42', '44'],
  );
  t.same(ids(await search(`filter[${size}]=44`)), ['b2']);
  t.same(ids(await search(`filter[${size}][lte]=43`)), ['b1']);
  const posted = await h.api.call('POST', '/v1/search', { key: store.key, body: { q: 'حذاء', filters: { لون: ['أحمر'] } } });
  t.same(ids(posted), ['b1']);
});

t.test('a canonical name is still refused with punctuation or an opening space', async (t) => {
  for (const name of [' size', 'size!', 'a.b', 'x[y]']) {
    const res = await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: [{ raw_name: 'Size', canonical_name: name }] } });
    t.equal(res.status, 400, name);
    t.equal(res.body.error.details[0].field, 'items.0.canonical_name', name);
  }
});

t.test('a number filters by its value in any writing: 9.0, 9.00, 1e1 and -0 match the stored numbers 9, 10 and 0', async (t) => {
  const store = await h.tenant('numbers written otherwise');
  await h.api.call('PUT', '/v1/attributes/mapping', { key: store.key, body: { items: mapping } });
  await loadProducts(h, store.key, store.id, [
    p('w0', { Weight: 0 }),
    p('w9', { Weight: 9 }),
    p('w95', { Weight: 9.5 }),
    p('w10', { Weight: 10 }),
    p('wt', { Weight: '9.0' }),
  ]);
  const got = async (qs: string) => ids(await h.api.call('GET', `/v1/search?q=shoe&${qs}`, { key: store.key }));
  t.same(await got('filter[weight]=9.0'), ['w9', 'wt'], 'the number 9, and the text "9.0" as written');
  t.same(await got('filter[weight]=9.00'), ['w9']);
  t.same(await got('filter[weight]=9'), ['w9'], 'the text "9.0" is text: "9" is not its writing');
  t.same(await got('filter[weight]=9.50'), ['w95']);
  t.same(await got('filter[weight]=1e1'), ['w10']);
  t.same(await got('filter[weight]=10.0,-0'), ['w0', 'w10']);
  t.same(await got('filter[weight]=0x9'), [], 'a hexadecimal literal is text, not 9');
  t.same(ids(await get('filter[size]=42.0')), ['s1'], 'the text "42" is the plain writing of 42.0');
  t.same(ids(await get('filter[size]=044')), ['s2'], 'and of 044');
  const posted = async (weight: unknown) => {
    const res = await h.api.call('POST', '/v1/search', { key: store.key, body: { q: 'shoe', filters: { weight } } });
    t.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    return res.status === 200 ? ids(res) : null;
  };
  t.same(await posted('9.00'), ['w9'], 'POST: a string');
  t.same(await posted(9.0), ['w9'], 'POST: a JSON number');
  t.same(await posted(['1e1', 9.5]), ['w10', 'w95'], 'POST: a list of both');
  const pk: string = (
    await h.api.call('POST', '/v1/keys', { key: store.key, body: { name: 'storefront', kind: 'public', allowed_origins: ['https://shop.example'] } })
  ).body.key;
  const algolia = await h.api.call('POST', '/algolia/1/indexes/*/queries', {
    body: { requests: [{ indexName: 'products', params: `query=shoe&facetFilters=${encodeURIComponent('["weight:9.0"]')}` }] },
    headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': store.id, origin: 'https://shop.example' },
  });
  t.equal(algolia.status, 200, JSON.stringify(algolia.body).slice(0, 300));
  t.same(algolia.body.results[0].hits.map((hit: { objectID: string }) => hit.objectID).sort(), ['w9', 'wt'], 'Algolia facetFilters weight:9.0');
  const facet = await h.api.call('GET', '/v1/search?q=shoe&facets=weight', { key: store.key });
  t.same(facet.body.facets[0].buckets.map((b: { value: string }) => b.value).sort(), ['0', '10', '9', '9.0', '9.5'], 'buckets as before');
});
