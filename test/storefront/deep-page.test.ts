import t from 'tap';
import { liteClient } from 'algoliasearch/lite';
import algoliasearchHelper from 'algoliasearch-helper';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS } from '../search/fixtures.js';

// Algolia takes any page and answers one past the last with no hits; InstantSearch sends the page its URL names
// (`?page=5000` from an old link), so such a page must not fail the whole call.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, PRODUCTS);
const ORIGIN = 'https://shop.example';
const pk: string = (await h.api.call('POST', '/v1/keys', { key, body: { name: 'storefront', kind: 'public', allowed_origins: [ORIGIN] } })).body.key;
const client = liteClient(tenantId, pk, {
  hosts: [{ url: `${new URL(h.api.url).host}/algolia`, protocol: 'http', accept: 'readWrite' }],
  baseHeaders: { origin: ORIGIN },
});
type Result = { hits: Array<{ objectID: string }>; nbHits: number; nbPages: number; page: number; facets: Record<string, Record<string, number>> };

t.test('a page past the last one the search has: no hits, the counts and facets of any page', async (t) => {
  const first = (await client.search({ requests: [{ indexName: 'products', query: '', hitsPerPage: 5, facets: ['brand'] }] })).results[0] as unknown as Result;
  t.equal(first.nbHits, PRODUCTS.length);
  for (const page of [1000, 5000]) {
    const res = await h.api.call('POST', '/algolia/1/indexes/*/queries', {
      body: { requests: [{ indexName: 'products', query: '', hitsPerPage: 5, page, facets: ['brand'] }] },
      headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': tenantId, origin: ORIGIN },
    });
    t.equal(res.status, 200, `page ${page}`);
    const r = res.body.results?.[0] as Result | undefined;
    t.same([r?.hits, r?.page, r?.nbHits, r?.nbPages], [[], page, first.nbHits, first.nbPages]);
    t.same(r?.facets, first.facets, 'facet counts as on page 0');
  }
});

t.test('the helper with a page from the URL', async (t) => {
  const helper = algoliasearchHelper(client as never, 'products', { facets: ['brand'], hitsPerPage: 5 });
  helper.setPage(4999);
  const { content } = await helper.searchOnce({ page: 4999 });
  t.same(content.hits, []);
  t.equal(content.nbHits, PRODUCTS.length);
  t.ok((content.getFacetValues('brand', {}) as unknown[]).length > 0, 'its facets render');
});
