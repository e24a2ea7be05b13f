import t from 'tap';
import { readFile } from 'node:fs/promises';
import { setup } from '../helpers/harness.js';
import { clientTypes, TYPES_FILE } from '../../scripts/client/generate.js';
import { apiClient, must } from '../../scripts/client/client.js';
import { postBatchBody } from '../../scripts/lib/load-catalog.js';

// The typed client (openapi-typescript types + openapi-fetch) is generated from the served document and kept in step with it.
const h = await setup();
t.teardown(() => h.close());
const { key } = await h.tenant();

t.test('the committed client types are what the served OpenAPI document generates (npm run client:generate)', async (t) => {
  const served = (await h.api.call('GET', '/v1/openapi.json')).body;
  const fresh = await clientTypes(served);
  t.ok(fresh.includes('"/algolia/1/indexes/*/queries"'), 'every route is in it, the storefront protocol too');
  t.equal(await readFile(TYPES_FILE, 'utf8'), fresh, 'up to date: run npm run client:generate after changing a route schema');
});

t.test('the typed client against the running API, as the CLIs use it', async (t) => {
  const api = apiClient(h.api.url, key);
  const who = must('whoami', await api.GET('/v1/auth/whoami'));
  t.equal(who.kind, 'secret');
  const batch = await postBatchBody(
    h.api.url,
    key,
    'client-test-1',
    JSON.stringify({ upsert: [{ id: 'p1', name: { en: 'Red dress' }, price: '10.00', currency: 'SAR' }] }),
  );
  t.equal(batch.upserted, 1, 'the catalog loader posts through it');
  const listed = must('products', await api.GET('/v1/products', { params: { query: { limit: 5 } } }));
  t.same(
    listed.data.map((p) => p.id),
    ['p1'],
  );
  // filter[...] as the document describes it (deepObject): the client's encoding is the one the route reads.
  must('search', await api.GET('/v1/search', { params: { query: { q: 'dress', filter: { brand: 'Zara,Mango', in_stock: 'true' } } } }));
  const unknown = await api.GET('/v1/search', { params: { query: { q: 'dress', filter: { fabric: 'silk' } } } });
  t.equal(unknown.response.status, 400);
  t.match(unknown.error, { error: { code: 'unknown_filter' } }, 'read as the filter fabric, not as an unknown parameter');
  const failed = await api.GET('/v1/jobs/{job_id}', { params: { path: { job_id: 'job_nope' } } });
  t.equal(failed.response.status, 404);
  t.throws(() => must('job nope', failed), /job nope failed: 404 .*not_found/);
});
