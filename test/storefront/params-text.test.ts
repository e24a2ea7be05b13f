import t from 'tap';
import { setup } from '../helpers/harness.js';
import { storefrontKey } from './storefront-key.js';

// The route refuses body strings Postgres cannot keep (U+0000, lone surrogates); a `params` string decodes to text of its
// own after that check. Such text reached the search log, whose one INSERT per flush then failed and dropped every
// store's rows in it.
const h = await setup();
t.teardown(() => h.close());
const deps = h.api.deps;
// Flushed by the test only, so the rows of one test share one write as they would share a timer's.
await deps.searchLog.stop();
const other = await h.tenant('Other store');
const { id: tenantId, key } = await h.tenant();
const storefront = await storefrontKey(h, tenantId, key);
const query = (params: string) => storefront.query({ params });

t.test('text in a params string that cannot be stored is 400 invalid_text at its parameter', async (t) => {
  const cases: Array<[string, string]> = [
    ['query=lap%00top', 'requests.0.query'],
    ['query=x&userToken=user%00one', 'requests.0.userToken'],
    [`facetFilters=${encodeURIComponent('["brand:A\\u0000"]')}`, 'requests.0.facetFilters.0'],
    [`filters=${encodeURIComponent('brand:"\u0000"')}`, 'requests.0.filters'],
    [`queryLanguages=${encodeURIComponent('["\\ud800"]')}`, 'requests.0.queryLanguages.0'],
  ];
  for (const [params, field] of cases) {
    const res = await query(params);
    t.equal(res.status, 400, params);
    t.same([res.body.status, res.body.error?.code, res.body.error?.details?.[0]?.field], [400, 'invalid_text', field]);
  }
});

t.test("another store's searches logged beside them are kept", async (t) => {
  const mine = await h.api.call('GET', '/v1/search?q=kept+words', { key: other.key });
  t.equal(mine.status, 200);
  await query('query=lap%00top');
  await query('query=x&userToken=user%00one');
  await deps.searchLog.flush();
  const rows = await deps.db('search_log').where({ tenant_id: other.id, query: 'kept words' });
  t.equal(rows.length, 1, 'its search is in the log');
});

t.test('an integer in a params string is decimal digits: page=0x1 or hitsPerPage=1e1 is 400 at its parameter', async (t) => {
  for (const [params, field] of [
    ['query=x&page=0x1', 'requests.0.page'],
    ['query=x&hitsPerPage=1e1', 'requests.0.hitsPerPage'],
    ['query=x&hitsPerPage=%205', 'requests.0.hitsPerPage'],
    ['query=x&maxValuesPerFacet=0b11', 'requests.0.maxValuesPerFacet'],
    [`query=x&filters=${encodeURIComponent('price < 0x10')}`, 'requests.0.filters'],
  ]) {
    const res = await query(params);
    t.equal(res.status, 400, params);
    t.equal(res.body.error?.details?.[0]?.field, field, params);
  }
  const fine = await query('query=x&page=0&hitsPerPage=5');
  t.equal(fine.status, 200);
  t.same([fine.body.results[0].page, fine.body.results[0].hitsPerPage], [0, 5]);
});
