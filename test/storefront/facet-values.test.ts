import t from 'tap';
import { algoliasearch } from 'algoliasearch';
import algoliasearchHelper from 'algoliasearch-helper';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS, MAPPING } from '../search/fixtures.js';
import { ORIGIN, storefrontKey } from './storefront-key.js';

// searchForFacetValues on one facet, POST /algolia/1/indexes/{index}/facets/{facet}/query: what
// algoliasearch v5's searchForFacetValues and v4 (InstantSearch's searchable refinementList) send.
// Not a rate-limit test: its calls with the one public key can come past the default 50 a second on a loaded machine (429).
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200', RATE_LIMIT_PUBLIC_PER_S: '100000' });
const { id: tenantId, key } = await h.tenant();
await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: MAPPING } });
await loadProducts(h, key, tenantId, PRODUCTS);
const { pk } = await storefrontKey(h, tenantId, key);
// Another store with a brand of its own: neither sees the other's values.
const other = await h.tenant();
await loadProducts(h, other.key, other.id, [{ id: 'o1', name: { en: 'Samsonite suitcase' }, price: 700, currency: 'SAR', brand: 'Samsonite' }]);
const otherKey = await storefrontKey(h, other.id, other.key);

const host = new URL(h.api.url).host;
/** The full algoliasearch v5 client (not lite: it has searchForFacetValues), on this service's /algolia prefix. */
const client = (appId = tenantId, apiKey = pk, origin = ORIGIN) =>
  algoliasearch(appId, apiKey, { hosts: [{ url: `${host}/algolia`, protocol: 'http', accept: 'readWrite' }], baseHeaders: { origin } });
const c = client();
type FacetHit = { value: string; highlighted: string; count: number };
const values = async (facetName: string, request: Record<string, unknown>, indexName = 'products') =>
  (await c.searchForFacetValues({ indexName, facetName, searchForFacetValuesRequest: request })).facetHits as FacetHit[];
/** The call over raw HTTP, to read the status, headers and error body. */
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  h.api.call('POST', `/algolia/1/indexes/${path}`, {
    body,
    headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': tenantId, origin: ORIGIN, ...headers },
  });

t.test("algoliasearch v5 searchForFacetValues: the facet's values with a word starting with facetQuery, Algolia's answer", async (t) => {
  const r = await c.searchForFacetValues({ indexName: 'products', facetName: 'brand', searchForFacetValuesRequest: { facetQuery: 'sa', maxFacetHits: 5 } });
  t.same(r.facetHits, [{ value: 'Samsung', count: 1, highlighted: '<em>Samsung</em>' }]);
  t.same([r.exhaustiveFacetsCount, typeof r.processingTimeMS], [true, 'number']);
  t.same(
    (await values('brand', { facetQuery: 'ap' })).map((v) => [v.value, v.count]),
    [['Apple', 2]],
  );
  t.equal((await values('brand', { facetQuery: '' })).length, 9, 'no facetQuery: every value (9 brands, under the default maxFacetHits 10)');
  t.equal((await values('brand', { facetQuery: '', maxFacetHits: 3 })).length, 3);
  t.same(await values('brand', { facetQuery: 'zzz' }), [], 'no value: none');
});

t.test('search parameters narrow the products counted: as fields, as the v4 params string, both', async (t) => {
  t.same(
    (await values('brand', { facetQuery: 'l' })).map((v) => [v.value, v.count]),
    [['Lenovo', 2]],
    'every product',
  );
  t.same(
    (await values('brand', { facetQuery: 'l', numericFilters: ['price<=1000'] } as never)).map((v) => [v.value, v.count]),
    [['Lenovo', 1]],
    'numericFilters as a field: the 5,200 laptop is not counted',
  );
  t.same(
    (await values('brand', { params: `facetQuery=l&filters=${encodeURIComponent('price < 1000')}` })).map((v) => [v.value, v.count]),
    [['Lenovo', 1]],
    'the params string (v4)',
  );
  t.same(
    (await values('brand', { params: `facetFilters=${encodeURIComponent('["category:audio"]')}`, facetQuery: '' })).map((v) => v.value).sort(),
    ['JBL', 'Sony'],
    'facetFilters in the params string, facetQuery as a field',
  );
  t.same((await values('brand', { params: 'query=smartphone', facetQuery: '' })).map((v) => v.value).sort(), ['Apple', 'Samsung'], 'the query');
});

t.test('category levels, a mapped facet, a URL-encoded facet name', async (t) => {
  t.same(await values('categories.lvl1', { facetQuery: 'au' }), [{ value: 'electronics>audio', count: 2, highlighted: '<em>Audio</em>' }]);
  const color = await post('products/facets/%63olor/query', { facetQuery: 'bl' });
  t.equal(color.status, 200);
  t.same(color.body.facetHits.map((v: FacetHit) => v.value).sort(), ['Black', 'Blue'], '%63olor is color');
});

t.test("the helper's searchForFacetValues (InstantSearch's searchable refinementList) with a v4-shaped client", async (t) => {
  // The helper calls a v4 client's searchForFacetValues([{ indexName, params }]); v4 posts each to
  // /1/indexes/{index}/facets/{facet}/query with the parameters as fields: here through the v5 client.
  const v4 = {
    search: c.search.bind(c),
    searchForFacetValues: (queries: Array<{ indexName: string; params: { facetName: string } & Record<string, unknown> }>) =>
      Promise.all(
        queries.map(({ indexName, params: { facetName, ...request } }) =>
          c.searchForFacetValues({ indexName, facetName, searchForFacetValuesRequest: request }),
        ),
      ),
  };
  const helper = algoliasearchHelper(v4 as never, 'products', { disjunctiveFacets: ['brand'], facets: ['color'] });
  helper.addFacetRefinement('color', 'Black').addDisjunctiveFacetRefinement('brand', 'Sony');
  const found = await helper.searchForFacetValues('brand', '', 10, {});
  t.same(
    found.facetHits.map((v) => [v.value, v.count, v.isRefined]).sort(),
    [
      ['Garmin', 1, false],
      ['Lenovo', 2, false],
      ['Samsung', 1, false],
      ['Sony', 1, true],
    ],
    'the brands of black products: the color refinement counts, the brand one (disjunctive) does not',
  );
});

t.test('never billed, never logged, the usage header as on the multi-query', async (t) => {
  const res = await post('products/facets/brand/query', { params: 'facetQuery=sa&query=phone', analytics: true });
  t.equal(res.status, 200);
  t.match(res.headers.get('x-service-usage'), /billed=0/);
  const [{ n }] = await h.api.deps.db('search_log').where({ tenant_id: tenantId, query: 'phone' }).count({ n: '*' });
  t.equal(Number(n), 0, 'no search-log row');
});

t.test("bad input: a 400 with Algolia's message and status, the parameter named; suggestions indices have no facets", async (t) => {
  const tooMany = await post('products/facets/brand/query', { facetQuery: 'a', maxFacetHits: 101 });
  t.same(
    [tooMany.status, tooMany.body.status, tooMany.body.error.code, tooMany.body.error.details[0].field],
    [400, 400, 'validation_failed', 'body.maxFacetHits'],
  );
  t.type(tooMany.body.message, 'string');
  const inParams = await post('products/facets/brand/query', { params: 'maxFacetHits=0' });
  t.same([inParams.status, inParams.body.error.details[0].field], [400, 'body.maxFacetHits'], 'in the params string too');
  const negation = await post('products/facets/brand/query', { facetFilters: ['brand:-Apple'] });
  t.same([negation.status, negation.body.error.code, negation.body.error.details[0].field], [400, 'unsupported_filter', 'body.facetFilters']);
  const unknown = await post('products/facets/brand/query', { filters: 'weight:3' });
  t.same([unknown.status, unknown.body.error.code], [400, 'unknown_filter']);
  const suggestions = await c
    .searchForFacetValues({ indexName: 'products_query_suggestions', facetName: 'brand', searchForFacetValuesRequest: { facetQuery: 'a' } })
    .then(
      () => null,
      (e: { status: number; message: string }) => e,
    );
  t.same([suggestions?.status, suggestions?.message], [400, 'suggestions indices have no facets'], "the client's ApiError");
  const badType = await post('products/facets/brand/query', { facetQuery: 3 });
  t.same([badType.status, badType.body.status], [400, 400]);
});

t.test('the key, the store and the origin are checked as on every protocol route; stores never see each other', async (t) => {
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: { status: number }) => e.status,
    );
  const ask = (cl: ReturnType<typeof client>) =>
    cl.searchForFacetValues({ indexName: 'products', facetName: 'brand', searchForFacetValuesRequest: { facetQuery: 's' } });
  t.equal(await failure(ask(client(tenantId, 'pk_live_nope'))), 401);
  t.equal(await failure(ask(client(other.id))), 403, "another store's id with this key");
  t.equal(await failure(ask(client(tenantId, pk, 'https://evil.example'))), 403, 'an origin the key does not allow');
  const mine = (await ask(c)).facetHits.map((v) => v.value).sort();
  const theirs = (await ask(client(other.id, otherKey.pk))).facetHits.map((v) => v.value);
  t.same([mine, theirs], [['Samsung', 'Sony'], ['Samsonite']]);
});
