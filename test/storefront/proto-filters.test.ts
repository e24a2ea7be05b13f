import t from 'tap';
import { setup } from '../helpers/harness.js';
import { storefrontKey } from './storefront-key.js';

// Algolia filters naming `__proto__` (numericFilters, facetFilters, a filters string): an unknown
// attribute like any other, never the prototype of the filters object (where a range filter was
// silently dropped) or of anything else.
const h = await setup();
t.teardown(() => h.close());
const { id: tenantId, key } = await h.tenant();
const storefront = await storefrontKey(h, tenantId, key);
const query = (params: string) => storefront.query({ params });

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
