import t from 'tap';
import { liteClient, type LiteClient } from 'algoliasearch/lite';
import algoliasearchHelper from 'algoliasearch-helper';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS, MAPPING } from '../search/fixtures.js';

// The official clients against the running service: algoliasearch v5 lite and the InstantSearch.js helper.
// Not a rate-limit test: its calls with the one public key come in bursts past the default 50 a second on a loaded machine (429).
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200', RATE_LIMIT_PUBLIC_PER_S: '100000' });
const { id: tenantId, key } = await h.tenant();
await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: MAPPING } });
await loadProducts(h, key, tenantId, PRODUCTS);
await h.api.call('POST', '/v1/reindex', { key, body: {} });
const ORIGIN = 'https://shop.example';
const pk: string = (await h.api.call('POST', '/v1/keys', { key, body: { name: 'storefront', kind: 'public', allowed_origins: [ORIGIN] } })).body.key;

const host = new URL(h.api.url).host;
/** The lite client given this service's host with the /algolia path prefix (the port goes in `url`, not `port`). */
const client = (appId = tenantId, apiKey = pk, origin = ORIGIN): LiteClient =>
  liteClient(appId, apiKey, { hosts: [{ url: `${host}/algolia`, protocol: 'http', accept: 'readWrite' }], baseHeaders: { origin } });
const c = client();
/** Every multi-query the helper sends, to see its extra facet queries. */
const sent: Array<Array<Record<string, unknown>>> = [];
const spied = {
  ...c,
  search: (req: Parameters<LiteClient['search']>[0], opts?: Parameters<LiteClient['search']>[1]) => {
    sent.push((Array.isArray(req) ? req : req.requests) as Array<Record<string, unknown>>);
    return c.search(req, opts);
  },
} as LiteClient;
type Result = {
  hits: Array<Record<string, any>>;
  nbHits: number;
  nbPages: number;
  page: number;
  hitsPerPage: number;
  facets: any;
  facets_stats: any;
  queryID: string;
  [k: string]: any;
};
const one = async (params: Record<string, unknown>, indexName = 'products'): Promise<Result> =>
  (await c.search({ requests: [{ indexName, ...params }] })).results[0] as unknown as Result;

t.test('hits with objectID and _highlightResult, queryID = the search id, the search path (typos, Arabic)', async (t) => {
  const r = await one({ query: 'laptop', hitsPerPage: 2 });
  t.equal(r.nbHits, 3);
  t.equal(r.nbPages, 2);
  t.equal(r.page, 0);
  t.equal(r.hitsPerPage, 2);
  t.same(r.hits.map((x) => x.objectID).sort(), ['lap1', 'lap2']);
  const lap1 = r.hits.find((x) => x.objectID === 'lap1')!;
  t.equal(lap1.name, 'Lenovo ThinkPad X1 Carbon laptop');
  t.equal(lap1.price, 5200, 'prices are numbers');
  t.equal(lap1.product.price, '5200', 'the exact card stays under product');
  t.same(lap1._highlightResult.name, {
    value: 'Lenovo ThinkPad X1 Carbon <em>laptop</em>',
    matchLevel: 'full',
    matchedWords: ['laptop'],
    fullyHighlighted: false,
  });
  t.match(lap1._highlightResult.description.value, /<em>laptop<\/em>/);
  t.match(r.queryID, /^srch_/);
  t.equal(r.query, 'laptop');
  t.match(r.params, /query=laptop/);
  t.equal(r.exhaustiveFacetsCount, true);
  t.type(r.processingTimeMS, 'number');

  const typo = await one({ query: 'smartphnoe' });
  t.same(typo.hits.map((x) => x.objectID).sort(), ['ph1', 'ph2'], 'typo correction from the same search path');
  t.equal(typo.didYouMean, 'smartphone');
  const ar = await one({ query: 'فستان احمر' });
  t.same(
    ar.hits.map((x) => x.objectID),
    ['ar1'],
  );
  t.equal(ar.hits[0].name, 'فستان قطن أحمر', 'names in the query language');
  t.equal(ar.lang, 'ar');
  const logged = await eventually(async () => h.api.deps.db('search_log').where({ id: r.queryID }).first(), 10_000);
  t.equal(logged.query, 'laptop', 'the queryID is the logged search id');
});

t.test('highlight tags, attributesToRetrieve, attributesToHighlight', async (t) => {
  const r = await one({ query: 'laptop', highlightPreTag: '__ais-highlight__', highlightPostTag: '__/ais-highlight__', attributesToRetrieve: ['name'] });
  const hit = r.hits.find((x) => x.objectID === 'lap1')!;
  t.equal(hit._highlightResult.name.value, 'Lenovo ThinkPad X1 Carbon __ais-highlight__laptop__/ais-highlight__');
  t.same(Object.keys(hit).sort(), ['_highlightResult', 'name', 'objectID']);
  const none = await one({ query: 'laptop', attributesToHighlight: [] });
  t.notOk('_highlightResult' in none.hits[0]);
  const amp = await one({ query: 'glass' });
  t.equal(amp.hits[0]._highlightResult.name.value, 'Screen protector <em>glass</em>', 'raw text: InstantSearch escapes it');
});

t.test('pagination is 0-based; a page past the end is empty', async (t) => {
  const p0 = await one({ query: '', hitsPerPage: 5, page: 0 });
  const p1 = await one({ query: '', hitsPerPage: 5, page: 1 });
  const p2 = await one({ query: '', hitsPerPage: 5, page: 2 });
  t.equal(p0.nbHits, 12);
  t.equal(p0.nbPages, 3);
  t.equal(p1.page, 1);
  const all = [...p0.hits, ...p1.hits, ...p2.hits].map((x) => x.objectID);
  t.equal(all.length, 12);
  t.equal(new Set(all).size, 12, 'pages do not overlap');
  t.same((await one({ query: '', hitsPerPage: 5, page: 7 })).hits, []);
});

t.test('the helper: disjunctive facets with its extra queries, numeric ranges, facets_stats', async (t) => {
  const helper = algoliasearchHelper(spied as never, 'products', { disjunctiveFacets: ['brand', 'price'], facets: ['in_stock'], hitsPerPage: 20 });
  helper.addDisjunctiveFacetRefinement('brand', 'Apple').addDisjunctiveFacetRefinement('brand', 'HP').addNumericRefinement('price', '<=', 4000);
  sent.length = 0;
  const { content } = await helper.searchOnce({});
  t.same(content.hits.map((x: { objectID: string }) => x.objectID).sort(), ['lap2', 'ph2']);
  t.equal(sent.length, 1, 'one HTTP call');
  t.ok(sent[0].length >= 3, `the helper sent ${sent[0].length} queries: the main one and one per refined disjunctive facet`);
  const facetQueries = sent[0].slice(1).map((q) => q.params as Record<string, unknown>);
  t.ok(
    facetQueries.every((q) => q.hitsPerPage === 0 && q.analytics === false),
    'its facet queries ask no hits and no analytics',
  );
  const brands = Object.fromEntries(
    (content.getFacetValues('brand', {}) as Array<{ name: string; count: number }>).map((v: { name: string; count: number }) => [v.name, v.count]),
  );
  t.equal(brands.Samsung, 1, 'brand counts ignore the brand refinement (disjunctive)');
  t.equal(brands.Apple, 1, 'counts keep the other refinements: the 4,300 MacBook is over the price limit');
  t.equal(brands.Zara, 2);
  t.same(content.getFacetStats('price'), { min: 2500, max: 4300 }, 'price stats ignore the price refinement itself (a disjunctive facet)');

  const range = await one({ query: '', numericFilters: ['price>=1000', 'price<=3000'], facets: ['price'] });
  t.same(range.hits.map((x) => x.objectID).sort(), ['lap2', 'ph1', 'w1']);
  t.same(range.facets_stats.price, { min: 1200, max: 2999 }, 'stats of the matches, under the price filter too (Algolia; the helper asks its own)');
  t.same((await one({ query: '', numericFilters: 'price:300 TO 450' })).hits.map((x) => x.objectID).sort(), ['h1', 'h2']);
  t.same(
    (await one({ query: '', numericFilters: ['price>300', 'price<=450'] })).hits.map((x) => x.objectID),
    ['h1'],
    'strict bounds',
  );
});

t.test("facet counts follow every filter, the facet's own too (Algolia); /v1 keeps its disjunctive counts", async (t) => {
  const black = await one({ query: '', facetFilters: ['color:Black'], facets: ['color'] });
  t.equal(black.nbHits, 5);
  t.same(black.facets.color, { Black: 5 }, 'only the refined value, counted over the matches');
  const tree = await one({
    query: '',
    facetFilters: [['categories.lvl1:electronics>audio']],
    facets: ['categories.lvl0', 'categories.lvl1', 'categories.lvl2'],
    maxValuesPerFacet: 1,
    hitsPerPage: 0,
  });
  t.equal(tree.nbHits, 2);
  t.same(
    tree.facets,
    { 'categories.lvl0': { electronics: 2 }, 'categories.lvl1': { 'electronics>audio': 2 }, 'categories.lvl2': {} },
    'the refined category and its parent, not the store top values',
  );
  const silver = await one({ query: 'laptop', facetFilters: ['color:Silver'], facets: ['color', 'brand'] });
  t.same([silver.nbHits, silver.facets.color, silver.facets.brand], [2, { Silver: 2 }, { Apple: 1, HP: 1 }], 'with words too');
  // /v1 between and after: the same filters, its own counts (the result and facet caches keep the two apart).
  const v1 = await h.api.call('GET', '/v1/search?q=laptop&filter[color]=Silver&facets=color', { key });
  t.same(
    v1.body.facets[0].buckets.map((b: { value: string; count: number }) => [b.value, b.count]),
    [
      ['Silver', 2],
      ['Black', 1],
    ],
    '/v1: color counts ignore the color filter',
  );
  const again = await one({ query: 'laptop', facetFilters: ['color:Silver'], facets: ['color'], page: 1 });
  t.same(again.facets.color, { Silver: 2 }, 'after /v1 counted the same match set');
  const v1Again = await h.api.call('GET', '/v1/search?q=laptop&filter[color]=Silver&facets=color&page=2', { key });
  t.equal(v1Again.body.facets[0].buckets.length, 2, '/v1 after the protocol counted the same match set');
});

t.test('the helper: hierarchical facets (categories.lvlN, separator >) and conjunctive facets', async (t) => {
  const helper = algoliasearchHelper(spied as never, 'products', {
    hierarchicalFacets: [{ name: 'categories.lvl0', attributes: ['categories.lvl0', 'categories.lvl1'], separator: '>' }],
    facets: ['in_stock', 'color'],
  });
  helper.toggleFacetRefinement('categories.lvl0', 'electronics>laptops').addFacetRefinement('color', 'Silver');
  const { content } = await helper.searchOnce({});
  t.same(content.hits.map((x: { objectID: string }) => x.objectID).sort(), ['lap2', 'lap3']);
  const tree = content.getFacetValues('categories.lvl0', {}) as {
    data: Array<{ name: string; path: string; isRefined: boolean; data: Array<{ path: string; count: number }> | null }>;
  };
  const electronics = tree.data.find((x) => x.path === 'electronics')!;
  t.ok(electronics.isRefined);
  t.ok(
    electronics.data!.find((x) => x.path === 'electronics>laptops' && x.count === 2),
    'children under the refined parent',
  );
  t.equal(
    (content as unknown as { categoryLabels: Record<string, string> }).categoryLabels['electronics>laptops'],
    'Laptops',
    'display labels beside the keys',
  );
  t.same(
    Object.keys(
      (content.getFacetValues('in_stock', {}) as Array<{ name: string; count: number }>).reduce(
        (o: Record<string, number>, v: { name: string; count: number }) => ({ ...o, [v.name]: v.count }),
        {},
      ),
    ).sort(),
    ['false', 'true'],
  );
});

t.test('filters: the documented subset', async (t) => {
  const ids = async (filters: string) => (await one({ query: '', filters })).hits.map((x) => x.objectID).sort();
  t.same(await ids('brand:Apple AND price < 4000'), ['ph2']);
  t.same(await ids('(brand:Apple OR brand:HP) AND in_stock:true'), ['lap2', 'ph2']);
  t.same(await ids('categories.lvl1:"Electronics > Audio"'), ['h1', 'h2'], 'a label path works as well as a key');
  t.same(await ids('price:100 TO 300 AND brand:Zara'), ['ar1'], 'price filters read the sale price: the shirt sells at 99');
  t.same((await one({ query: '', facetFilters: [['brand:Apple', 'brand:HP'], 'color:Silver'] })).hits.map((x) => x.objectID).sort(), ['lap2', 'lap3']);
});

t.test('filters on two category levels: products in both (the deeper level)', async (t) => {
  const ids = async (params: Record<string, unknown>) => (await one({ query: '', ...params })).hits.map((x) => x.objectID).sort();
  t.same(await ids({ facetFilters: ['categories.lvl0:electronics', 'categories.lvl1:electronics>audio'] }), ['h1', 'h2']);
  t.same(await ids({ filters: 'categories.lvl0:electronics AND categories.lvl1:"electronics>audio"' }), ['h1', 'h2'], 'the filters string');
  t.same(await ids({ facetFilters: ['categories.lvl0:clothing', 'categories.lvl1:electronics>audio'] }), [], 'unrelated levels');
});

t.test('a category label path in any of the store languages', async (t) => {
  // The Arabic labels come with the suggestion dictionary, which the workers build after the load.
  const ar = await eventually(async () => {
    const r = await one({ query: '', facetFilters: ['categories.lvl1:ع-Electronics > ع-Audio'] });
    return r.nbHits > 0 ? r : null;
  }, 15_000);
  t.same(ar.hits.map((x) => x.objectID).sort(), ['h1', 'h2']);
  t.same((await one({ query: '', filters: 'categories.lvl0:"ع-Clothing"' })).hits.map((x) => x.objectID).sort(), ['ar1', 'ar2'], 'in filters too');
  t.same((await one({ query: '', facetFilters: ['categories.lvl1:Electronics > ع-Audio'] })).nbHits, 2, 'levels of either language');
});

t.test('a leaf category (category:<id>) AND a category level: the products in both', async (t) => {
  const ids = async (params: Record<string, unknown>) => (await one({ query: '', ...params })).hits.map((x) => x.objectID).sort();
  t.same(await ids({ facetFilters: [['category:audio'], 'categories.lvl0:electronics'] }), ['h1', 'h2']);
  t.same(await ids({ facetFilters: ['categories.lvl1:electronics>audio', 'category:audio'] }), ['h1', 'h2'], 'the leaf and its own path');
  t.same(await ids({ filters: 'category:audio AND categories.lvl0:"ع-Electronics"' }), ['h1', 'h2'], 'the filters string, a label path');
  t.same(
    await ids({ facetFilters: ['categories.lvl0:electronics', ['category:audio', 'category:dresses']] }),
    ['h1', 'h2'],
    'of leaves ORed, those in the level',
  );
  const counted = await one({ query: '', facetFilters: ['category:laptops', 'categories.lvl0:electronics'], facets: ['brand'], hitsPerPage: 0 });
  t.same([counted.nbHits, counted.facets.brand], [3, { Apple: 1, HP: 1, Lenovo: 1 }], 'counts too');
  t.same(await ids({ facetFilters: ['category:audio', 'categories.lvl0:clothing'] }), [], 'a leaf outside the level: nothing');
  t.same(await ids({ facetFilters: ['category:audio', 'categories.lvl1:electronics>phones'] }), [], 'a sibling level: nothing');
  t.same(await ids({ facetFilters: ['category:no-such-leaf', 'categories.lvl0:electronics'] }), [], 'a leaf the store does not have: nothing');
  const many = Array.from({ length: 21 }, (_, i) => `category:leaf-${i}`);
  const refused = await c.search({ requests: [{ indexName: 'products', facetFilters: [many, 'categories.lvl0:electronics'] }] }).then(
    () => null,
    (e: { status: number; message: string }) => e,
  );
  t.same([refused?.status, /at most 20 leaf categories/.test(refused?.message ?? '')], [400, true], 'each leaf is looked up: at most 20');
});

t.test('in_stock: true or false; another value, or true AND false, answers 0 hits', async (t) => {
  t.same(
    (await one({ query: '', filters: 'in_stock:false' })).hits.map((x) => x.objectID),
    ['lap3'],
  );
  for (const params of [{ filters: 'in_stock:1' }, { facetFilters: ['in_stock:yes'] }, { filters: 'in_stock:true AND in_stock:false' }]) {
    const r = await one({ query: '', ...params });
    t.same([r.nbHits, r.hits], [0, []], JSON.stringify(params));
  }
  t.same(
    (await one({ query: '', numericFilters: ['in_stock=0'] })).hits.map((x) => x.objectID),
    ['lap3'],
    'numeric 0 is false',
  );
});

t.test("errors name the protocol's parameters (requests.<i>.<param>); a language the store lacks is skipped", async (t) => {
  const q = (requests: unknown[]) =>
    h.api.call('POST', '/algolia/1/indexes/*/queries', {
      body: { requests },
      headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': tenantId, origin: ORIGIN },
    });
  const fr = await q([
    { indexName: 'products', query: 'laptop', queryLanguages: ['fr'] },
    { indexName: 'products', query: 'laptop', queryLanguages: ['fr', 'en'], hitsPerPage: 1 },
  ]);
  t.equal(fr.status, 200, 'fr is not a locale of the store: skipped, as Algolia takes the list as a hint');
  t.same(
    fr.body.results.map((r: Result) => [r.nbHits, r.lang]),
    [
      [3, 'en'],
      [3, 'en'],
    ],
  );
  const price = await q([
    { indexName: 'products', query: '' },
    { indexName: 'products', facetFilters: ['price:10'] },
  ]);
  t.equal(price.status, 400);
  t.same(
    price.body.error.details.map((d: { field: string }) => d.field),
    ['requests.1.facetFilters'],
  );
  t.notMatch(price.body.message, /filter\[/, 'no /v1 syntax in the message');
  t.match(price.body.message, /numericFilters/);
  const unknown = await q([{ indexName: 'products', filters: 'brand:Apple AND weight:3' }]);
  t.equal(unknown.body.error.code, 'unknown_filter');
  t.same(unknown.body.error.details[0].field, 'requests.0.filters');
  t.notMatch(unknown.body.message, /filter\[/);
  const negation = await q([{ indexName: 'products', facetFilters: ['brand:-Apple'] }]);
  t.equal(negation.body.error.details[0].field, 'requests.0.facetFilters');
});

t.test('query and product suggestions indices, backed by suggest; single-index route; v4 params string; facet values', async (t) => {
  const { results } = (await c.search({
    requests: [
      { indexName: 'products_query_suggestions', query: 'app', hitsPerPage: 5 },
      { indexName: 'products_product_suggestions', query: 'smart', hitsPerPage: 3 },
    ],
  })) as unknown as { results: Result[] };
  t.ok(results[0].hits.length > 0, 'completions');
  t.ok(results[0].hits.every((x) => typeof x.query === 'string' && ['query', 'category', 'brand'].includes(x.kind)));
  t.ok(results[0].hits.some((x) => /<em>app<\/em>/i.test(x._highlightResult.query.value)));
  t.ok(results[1].hits.length > 0 && results[1].hits.length <= 3, 'previews');
  t.ok(results[1].hits.every((x) => /smart/i.test(x.name)));
  t.notOk(results[0].queryID, 'suggestions are not logged searches');

  const single = await h.api.call('POST', `/algolia/1/indexes/products_price_desc/query?x-algolia-api-key=${pk}&x-algolia-application-id=${tenantId}`, {
    body: { params: 'query=laptop&hitsPerPage=2&facets=%5B%22brand%22%5D' },
    headers: { origin: ORIGIN },
  });
  t.equal(single.status, 200);
  const v1 = await h.api.call('GET', '/v1/search?q=laptop&sort=price_desc&per_page=2', { key });
  t.same(
    single.body.hits.map((x: { objectID: string }) => x.objectID),
    v1.body.ids,
    'the _price_desc replica sorts as /v1/search sort=price_desc',
  );
  t.same(v1.body.ids, ['lap1', 'lap2'], 'in stock first, then by price');
  t.ok(single.body.facets.brand.Lenovo, 'facets from the params string');
  t.equal(single.body.index, 'products_price_desc');

  const fv = await c.search({ requests: [{ indexName: 'products', type: 'facet', facet: 'brand', facetQuery: 'sa', maxFacetHits: 5 }] } as never);
  t.same((fv.results[0] as unknown as { facetHits: unknown[] }).facetHits, [{ value: 'Samsung', count: 1, highlighted: '<em>Samsung</em>' }]);
});

t.test("errors come back as the client's ApiError with a message and status", async (t) => {
  const failure = async (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: { message: string; status: number }) => e,
    );
  const badKey = await failure(client(tenantId, 'pk_live_nope').search({ requests: [{ indexName: 'products', query: 'x' }] }));
  t.equal(badKey?.status, 401);
  t.match(badKey?.message, /key/i);
  const wrongApp = await failure(client('ten_other').search({ requests: [{ indexName: 'products', query: 'x' }] }));
  t.equal(wrongApp?.status, 403);
  t.match(wrongApp?.message, /x-algolia-application-id/);
  const wrongOrigin = await failure(client(tenantId, pk, 'https://evil.example').search({ requests: [{ indexName: 'products', query: 'x' }] }));
  t.equal(wrongOrigin?.status, 403);
  const negation = await failure(c.search({ requests: [{ indexName: 'products', facetFilters: ['brand:-Apple'] }] }));
  t.equal(negation?.status, 400);
  t.match(negation?.message, /negation/);
  const cross = await failure(c.search({ requests: [{ indexName: 'products', facetFilters: [['brand:Apple', 'color:Red']] }] }));
  t.match(cross?.message, /OR across attributes/);
  const badType = await failure(c.search({ requests: [{ indexName: 'products', hitsPerPage: 'many' as never }] }));
  t.equal(badType?.status, 400);
  t.match(badType?.message, /hitsPerPage/);
  const unknownFilter = await failure(c.search({ requests: [{ indexName: 'products', facetFilters: ['weight:3'] }] }));
  t.equal(unknownFilter?.status, 400);
  const raw = await h.api.call('POST', '/algolia/1/indexes/*/queries', {
    body: { requests: [] },
    headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': tenantId, origin: ORIGIN },
  });
  t.equal(raw.status, 400);
  t.equal(raw.body.status, 400);
  t.type(raw.body.message, 'string');
  t.equal(raw.body.error.code, 'validation_failed', "the service's own error body beside it");
});

t.test('suggestions indices page their list: nbHits and nbPages alike on every page, none past the end', async (t) => {
  const page = async (indexName: string, hitsPerPage: number, p: number, query = 'ع') =>
    (await c.search({ requests: [{ indexName, query, hitsPerPage, page: p }] })).results[0] as unknown as Result;
  // The dictionary comes from the workers after the load: the Arabic category labels complete "ع".
  const all = await eventually(async () => {
    const r = await page('products_query_suggestions', 20, 0);
    return r.nbHits >= 5 ? r : null;
  }, 15_000);
  const first = await page('products_query_suggestions', 2, 0);
  const next = await page('products_query_suggestions', 2, 1);
  t.same([first.nbHits, first.nbPages, next.nbHits, next.nbPages], [all.nbHits, Math.ceil(all.nbHits / 2), all.nbHits, Math.ceil(all.nbHits / 2)]);
  t.same(
    [...first.hits, ...next.hits].map((x) => x.objectID),
    all.hits.slice(0, 4).map((x) => x.objectID),
    'page 1 follows page 0',
  );
  const past = await page('products_query_suggestions', 2, Math.ceil(all.nbHits / 2));
  t.same([past.hits, past.page], [[], Math.ceil(all.nbHits / 2)], 'a page past the end has no hits');
  const previews = await page('products_product_suggestions', 50, 0, 'smart');
  t.same([previews.hitsPerPage, previews.nbHits, previews.nbPages], [10, 3, 1], 'previews: the hitsPerPage applied (at most 10) is echoed');
  const second = await page('products_product_suggestions', 1, 1, 'smart');
  t.same([second.hits.map((x) => x.objectID), second.nbHits, second.nbPages], [[previews.hits[1].objectID], 3, 3]);
});

t.test('paths the protocol does not have answer with its message and status too', async (t) => {
  const recommend = await c.getRecommendations({ requests: [{ indexName: 'products', model: 'related-products', objectID: 'lap1', threshold: 0 }] }).then(
    () => null,
    (e: { message?: string; status?: number }) => e,
  );
  t.equal(recommend?.status, 404);
  t.match(recommend?.message, /no route for POST \/algolia\/1\/indexes\/\*\/recommendations/, "the lite client's ApiError has the message");
  const get = await h.api.call('GET', `/algolia/1/indexes/*/queries?x-algolia-api-key=${pk}&x-algolia-application-id=${tenantId}`, {
    headers: { origin: ORIGIN },
  });
  t.equal(get.status, 405);
  t.same([get.body.status, typeof get.body.message, get.body.error.code], [405, 'string', 'method_not_allowed']);
  const v1 = await h.api.call('GET', '/v1/nothing-here', { key });
  t.same([v1.status, v1.body.message, v1.body.status], [404, undefined, undefined], '/v1 keeps its own error body');
});

t.test('billing: one billed search per shopper search; facet-only, later pages and suggestions are free and facet queries unlogged', async (t) => {
  const q = (requests: unknown[]) =>
    h.api.call('POST', '/algolia/1/indexes/*/queries', {
      body: { requests },
      headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': tenantId, origin: ORIGIN, 'content-type': 'text/plain' },
    });
  const billed = (res: { headers: Headers }) => /billed=(\d+)/.exec(res.headers.get('x-service-usage') ?? '')?.[1];
  t.equal(
    billed(
      await q([
        { indexName: 'products', query: 'tablet', facets: ['brand'] },
        { indexName: 'products', query: 'tablet', hitsPerPage: 0, analytics: false, facets: ['brand'], page: 0 },
        { indexName: 'products_query_suggestions', query: 'tab' },
      ]),
    ),
    '1',
    "the helper's main query only (text/plain body, as browsers send)",
  );
  t.equal(billed(await q([{ indexName: 'products', query: 'tablet', page: 1 }])), '0', 'page 2');
  const rows = await eventually(async () => {
    const r = await h.api.deps.db('search_log').where({ tenant_id: tenantId, query: 'tablet' });
    return r.length >= 2 ? r : null;
  }, 5000);
  t.equal(rows.length, 2, 'the shopper search and its page 2 are logged; the facet query is not');
});
