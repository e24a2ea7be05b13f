import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS, MAPPING } from './fixtures.js';

const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: MAPPING } });
await loadProducts(h, key, tenantId, PRODUCTS);
await h.api.call('POST', '/v1/reindex', { key, body: {} });

const get = (qs: string, k = key, headers: Record<string, string> = {}) => h.api.call('GET', `/v1/search?${qs}`, { key: k, headers });
const post = (body: unknown, k = key) => h.api.call('POST', '/v1/search', { key: k, body });
const ids = (res: { body: { ids: string[] } }) => res.body.ids;

t.test('matches all words, ranks name matches, highlights', async (t) => {
  const res = await get('q=laptop');
  t.equal(res.status, 200);
  t.same([...ids(res).slice(0, 2)].sort(), ['lap1', 'lap2'], 'name matches first');
  t.equal(ids(res)[2], 'lap3', 'the "Laptops" category match (a notebook, out of stock) last');
  t.match(res.body.search_id, /^srch_/);
  t.equal(res.body.query.lang, 'en');
  const hit = res.body.hits.find((x: { id: string }) => x.id === 'lap1');
  t.equal(hit.highlights.name, 'Lenovo ThinkPad X1 Carbon <em>laptop</em>');
  t.match(hit.highlights.description, /<em>laptop<\/em>/);
  t.equal(hit.product.price, '5200');
  t.notOk('margin' in hit.product);
});

t.test('compound words and typo tolerance, never on codes', async (t) => {
  t.same(ids(await get('q=smart+watch')), ['w1'], 'smart watch finds smartwatch');
  t.same(ids(await get('q=head+set')), ['h1'], 'head set finds headset');
  const typo = await get('q=smartphnoe');
  t.same([...ids(typo)].sort(), ['ph1', 'ph2']);
  t.equal(typo.body.did_you_mean, 'smartphone');
  t.same(ids(await get('q=SP-1000')), ['ar3'], 'sku matches exactly');
  t.same(ids(await get('q=SP-1001')), [], 'no typo correction on codes');
});

t.test("did-you-mean shows the catalog's own writing of a corrected word", async (t) => {
  // Normalized, "زجاجية" is "زجاجيه" (teh marbuta folded): the suggestion is written as the names write it.
  const typo = await get(`q=${encodeURIComponent('شاشة زجاجبة')}`);
  t.same(ids(typo), ['ar3']);
  t.equal(typo.body.did_you_mean, 'شاشه زجاجية', 'the corrected word as the catalog spells it; the others as before');
  const past = await get(`q=${encodeURIComponent('زجاجبة')}&page=5`);
  t.equal(past.body.did_you_mean, 'زجاجيه', 'no hits on the page to read it from: the normalized word');
  t.equal((await get('q=smartphnoe')).body.did_you_mean, 'smartphone', 'case as before: not "Smartphone"');
});

t.test('Arabic: every normalization variant finds the same product', async (t) => {
  for (const q of ['أحمر', 'احمر', 'اَحْمَر', 'فستان أحمر', 'الفستان']) {
    const res = await get(`q=${encodeURIComponent(q)}`);
    t.ok(ids(res).includes('ar1'), `${q} finds the dress`);
    t.equal(res.body.query.lang, 'ar');
  }
  t.same(ids(await get(`q=${encodeURIComponent('شاشه')}`)), ['ar3'], 'teh marbuta folded');
});

t.test('filters (GET and POST), unknown filter, disjunctive facets and category tree', async (t) => {
  const res = await get('q=&filter[brand]=Apple,HP&filter[price][lte]=4000&facets=brand,category_tree,price,color');
  t.same([...ids(res)].sort(), ['lap2', 'ph2']);
  const brand = res.body.facets.find((f: { name: string }) => f.name === 'brand');
  t.ok(
    brand.buckets.find((b: { value: string }) => b.value === 'Samsung'),
    'brand counts ignore the brand filter',
  );
  t.notOk(brand.buckets.find((b: { value: string; count: number }) => b.value === 'Zara' && b.count > 0 && false));
  const tree = res.body.facets.find((f: { name: string }) => f.name === 'category_tree');
  t.equal(tree.type, 'category_tree');
  t.ok(tree.buckets.find((b: { value: string; label: Record<string, string> }) => b.value === 'lvl:electronics' && b.label.en === 'Electronics'));
  t.ok(tree.buckets.length > 1 && tree.buckets.every((b: { label: unknown }) => b.label !== null), 'every level is labelled, the deepest too');
  const price = res.body.facets.find((f: { name: string }) => f.name === 'price');
  t.equal(price.type, 'range');
  const viaPost = await post({ q: '', filters: { brand: ['Apple', 'HP'], price: { lte: 4000 } } });
  t.same([...ids(viaPost)].sort(), ['lap2', 'ph2']);
  t.same([...ids(await post({ filters: { color: ['Red'], category: 'lvl:clothing' } }))], ['ar1']);
  t.same([...ids(await get('filter[category]=laptops&filter[in_stock]=true'))].sort(), ['lap1', 'lap2']);
  const unknown = await get('q=x&filter[nope]=1');
  t.equal(unknown.status, 400);
  t.equal(unknown.body.error.code, 'unknown_filter');
  t.equal((await get('q=x&bogus=1')).status, 400);
  t.equal((await get('facets=nope')).body.error.code, 'unknown_facet');
});

t.test('sorts, in-stock first and business signals', async (t) => {
  const asc = await get('filter[category]=laptops&sort=price_asc');
  t.same(ids(asc), ['lap2', 'lap1', 'lap3'], 'out-of-stock MacBook last although in the middle by price');
  const desc = await post({ filters: { category: ['laptops'] }, sort: 'price_desc', config_override: { in_stock_first: false } });
  t.same(ids(desc), ['lap1', 'lap2', 'lap3'], 'override ignored for API keys: in-stock first stays on');
  const session = (await h.api.call('POST', '/v1/sessions', { key, body: {} })).body.token;
  const off = await post({ filters: { category: ['laptops'] }, sort: 'price_desc', config_override: { in_stock_first: false } }, session);
  t.same(ids(off), ['lap1', 'lap3', 'lap2'], 'dashboard session override honoured');
  const popular = await get('filter[category]=laptops&sort=popular');
  t.same(ids(popular), ['lap2', 'lap1', 'lap3']);
  const boosted = await post({ q: 'laptop', config_override: { business_signals: { popularity: 1 } } }, session);
  t.same(ids(boosted), ['lap2', 'lap1', 'lap3'], 'popularity weight lifts the popular laptop');
});

t.test('rule parser: price, brand, colour and sort intents in both languages', async (t) => {
  const en = await get('q=red+apple+phone+under+4000+cheapest');
  t.same(ids(en), ['ph2']);
  t.same(en.body.query.filters.price, { lte: 4000 });
  t.equal(en.body.query.sort, 'price_asc');
  t.equal(en.body.query.rewritten, 'phone');
  const ar = await get(`q=${encodeURIComponent('فستان تحت ٢٠٠')}`);
  t.same(ids(ar), ['ar1']);
  t.same(ar.body.query.filters.price, { lte: 200 });
  const off = await post(
    { q: 'laptop under 3000', config_override: { rule_parser: false } },
    (await h.api.call('POST', '/v1/sessions', { key, body: {} })).body.token,
  );
  t.same(off.body.query.filters, {});
});

t.test('fallback, zero-result help and relaxation', async (t) => {
  const some = await get('q=android+tablet+waterproof');
  t.same(ids(some)[0], 't1', 'any-word fallback when all words find nothing');
  t.equal(some.body.zero_result_help.relaxed, true);
  const few = await get('q=cotton+dress');
  t.same(ids(few), ['ar1', 'ar2'], 'fewer than a page of all-word matches: products with some of the words follow');
  t.equal(few.body.zero_result_help, null, 'not relaxed: the first hit has every word');
  const partial = await get('q=cotton+dress+protector');
  t.equal(ids(partial)[0], 'ar1', 'among partial matches, more of the words first');
  const none = await get('q=zzzzqqq');
  t.equal(none.body.total, 0);
  t.equal(none.body.zero_result_help.relaxed, false);
  t.ok(none.body.zero_result_help.popular_categories.length > 0);
});

t.test('limits, debug and tenant isolation', async (t) => {
  for (const qs of ['page=0', 'page=1001', 'per_page=0', 'per_page=101', `q=${'a'.repeat(257)}`, 'lang=xx', 'lang=EN']) {
    const res = await get(qs);
    t.equal(res.status, 400, qs);
  }
  t.equal((await get('per_page=100&page=1000')).status, 200);
  const debug = await post({ q: 'laptop', debug: true });
  t.ok(debug.body.debug.steps.find((s: { step: string }) => s.step === 'retrieve'));
  const pub = await h.api.call('POST', '/v1/keys', { key, body: { name: 'shop', kind: 'public', allowed_origins: ['https://shop.example'] } });
  const origin = { origin: 'https://shop.example' };
  const publicDebug = await h.api.call('POST', '/v1/search', { key: pub.body.key, body: { q: 'laptop', debug: true }, headers: origin });
  t.equal(publicDebug.status, 403);
  t.equal(publicDebug.body.error.code, 'debug_not_allowed');
  t.equal((await get('q=laptop', pub.body.key, origin)).status, 200, 'public key may search');
  const other = await h.tenant('other');
  t.same(ids(await get('q=laptop', other.key)), []);
});

t.test('billing: page 1 counted with X-Service-Usage, later pages and suggest not', async (t) => {
  const t2 = await h.tenant('billing');
  const first = await get('q=x', t2.key);
  t.match(first.headers.get('x-service-usage'), /^searches=1; limit=unlimited; billed=1; period=\d{4}-\d{2}$/);
  const page2 = await get('q=x&page=2', t2.key);
  t.match(page2.headers.get('x-service-usage'), /billed=0/);
  await h.api.call('GET', '/v1/suggest?q=lap', { key: t2.key });
  await h.api.deps.usage.flush();
  t.equal(await h.api.deps.usage.dayCount(t2.id, new Date().toISOString().slice(0, 10)), 1);
});

t.test('suggest: completions, previews and categories', async (t) => {
  const res = await h.api.call('GET', '/v1/suggest?q=sam', { key });
  t.equal(res.status, 200);
  const brand = res.body.suggestions.find((s: { kind: string }) => s.kind === 'brand');
  t.same(brand, { text: 'Samsung', highlighted: '<em>Sam</em>sung', kind: 'brand', target: 'Samsung' });
  t.same(
    res.body.products.map((p: { id: string }) => p.id),
    ['ph1'],
  );
  const cat = await h.api.call('GET', '/v1/suggest?q=lapt&products=0', { key });
  t.ok(cat.body.suggestions.find((s: { kind: string; target: string }) => s.kind === 'category' && s.target === 'laptops'));
  t.same(cat.body.products, []);
  t.equal((await h.api.call('GET', '/v1/suggest?q=x&limit=21', { key })).status, 400);
  t.equal((await h.api.call('GET', `/v1/suggest?q=${'a'.repeat(129)}`, { key })).status, 400);
});

t.test('cached results never outlive an index change', async (t) => {
  const first = await get('q=quokkatron');
  t.equal(first.body.total, 0);
  t.equal((await get('q=quokkatron')).body.total, 0, 'the same search again (from the cache)');
  await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: [{ id: 'new1', name: { en: 'Quokkatron blender' }, price: 5, currency: 'SAR' }] } });
  const { eventually } = await import('../helpers/workers.js');
  await eventually(async () => (await get('q=quokkatron')).body.total === 1, 5000);
  await h.api.call('DELETE', '/v1/products/new1', { key });
  t.equal((await get('q=quokkatron')).body.total, 0, 'a delete is seen at once, cache or not');
});

t.test('a cached answer is the same response with its own search_id and took_ms', async (t) => {
  const qs = 'q=laptop&facets=brand,price,category_tree';
  const first = await get(qs);
  const again = await get(qs);
  t.match(again.headers.get('content-type'), /^application\/json/);
  t.not(again.body.search_id, first.body.search_id);
  t.match(again.body.search_id, /^srch_/);
  t.type(again.body.took_ms, 'number');
  const strip = (b: Record<string, unknown>) => ({ ...b, search_id: null, took_ms: null });
  t.same(strip(again.body), strip(first.body));
  t.equal(again.headers.get('x-service-usage')?.includes('billed=1'), true, 'billed like any page-1 search');
});
