import t from 'tap';
import pg from 'pg';
import { setup, type Reply } from '../helpers/harness.js';
import { spawnWorker } from '../helpers/processes.js';
import { indexReport, complete } from '../helpers/indexed.js';
import { waitFor } from '../helpers/wait.js';

// A delete whose connection is terminated after the product row is gone but before its search
// document is (the engine's removal is a second transaction): the request answers a retryable
// error, and its retry must leave the product out of search, not answer "nothing to delete" over
// a search document that stays for ever. The fault: the test holds the document's row lock, waits
// until the API's removal waits on it, and terminates that backend (pg_terminate_backend).
const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const h = await setup({ SEARCH_CACHE_TTL_MS: '0' });
t.teardown(() => h.close());
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
t.teardown(() => admin.end());
const database = decodeURIComponent(new URL(h.config.databaseUrl).pathname.slice(1));

/** Runs `request` while the product's search document is locked, and kills the backend that waits for it. */
async function interrupted(tenantId: string, productId: string, request: () => Promise<Reply>): Promise<Reply> {
  const locker = new pg.Client({ connectionString: h.config.databaseUrl });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM search_docs WHERE tenant_id = $1 AND product_id = $2 FOR UPDATE', [tenantId, productId]);
    const pending = request();
    const pid = await waitFor(
      async () =>
        (
          await admin.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND position('search_docs' in query) > 0`, [
            database,
          ])
        ).rows[0]?.pid,
      20_000,
      'the removal waiting on the lock',
    );
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    return await pending;
  } finally {
    await locker.query('ROLLBACK').catch(() => undefined);
    await locker.end();
  }
}

t.test('a delete interrupted between the catalog and search: its retry removes the product from search', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const worker = spawnWorker(t, h.config);
  const upsert = ['a1', 'a2', 'a3'].map((id) => ({ id, name: { en: `Interrupted teacup ${id}` }, price: 5, currency: 'USD' }));
  t.equal((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert } })).status, 200);
  await waitFor(
    async () => complete(await indexReport(h.api.deps.db, tenantId)),
    30_000,
    () => `indexed (${worker.log().slice(-1000)})`,
  );
  const searched = async () => (await h.api.call('GET', '/v1/search?q=teacup', { key })).body.ids?.sort();
  t.same(await searched(), ['a1', 'a2', 'a3']);

  const headers = { 'idempotency-key': 'interrupted-delete-1' };
  const batch = () => h.api.call('POST', '/v1/products/batch', { key, body: { delete: ['a1'] }, headers });
  const first = await interrupted(tenantId, 'a1', batch);
  t.equal(first.status, 503, `the interrupted batch answers a retryable error (${first.body?.error?.code})`);
  const retried = await waitFor(async () => {
    const r = await batch();
    return r.status === 200 ? r : null;
  }, 20_000);
  t.equal(retried.status, 200);
  t.notOk((await searched()).includes('a1'), 'the batch retry took the deleted product out of search');

  const single = () => h.api.call('DELETE', '/v1/products/a2', { key, headers: { 'idempotency-key': 'interrupted-delete-2' } });
  const one = await interrupted(tenantId, 'a2', single);
  t.equal(one.status, 503, `the interrupted delete answers a retryable error (${one.body?.error?.code})`);
  const again = await waitFor(async () => {
    const r = await single();
    return r.status !== 409 ? r : null;
  }, 20_000);
  t.equal(again.status, 404, 'the product is gone');
  t.same(await searched(), ['a3'], 'and out of search');
  t.same((await indexReport(h.api.deps.db, tenantId)).strays, 0, 'no search document of a deleted product');
});
