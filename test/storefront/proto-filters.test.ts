import t from 'tap';
import { setup } from '../helpers/harness.js';

// Algolia filters naming `__proto__` (numericFilters, facetFilters, a filters string): an unknown
// attribute like any other, never the prototype of the filters object (where a range filter was
// silently dropped) or of anything else.
const h = await setup();
t.teardown(() => h.close());
const { id: tenantId, key } = await h.tenant();
const ORIGIN = 'https://shop.example';
const pk: string = (await h.api.call('POST', '/v1/keys', { key, body: { name: 'storefront', kind: 'public', allowed_origins: [ORIGIN] } })).body.key;
const query = (params: string) =>
  h.api.call('POST', '/algolia/1/indexes/*/queries', {
    body: { requests: [{ indexName: 'products', params }] },
    headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': tenantId, origin: ORIGIN },
  });

t.test('a filter on __proto__ is refused as an unknown attribute', async (t) => {
  for (const params of [
    `numericFilters=${encodeURIComponent('["__proto__>=7"]')}`,
    `numericFilters=${encodeURIComponent('["__proto__>=7","__proto__<=9"]')}`,
    `facetFilters=${encodeURIComponent('["__proto__:x"]')}`,
    `filters=${encodeURIComponent('__proto__ >= 7')}`,
  ]) {
    const res = await query(params);
    t.equal(res.status, 400, `${params}: ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  t.equal(({} as Record<string, unknown>).gte, undefined, 'no object gained a gte');
  const fine = await query('query=anything');
  t.equal(fine.status, 200, 'the next query is answered');
});
