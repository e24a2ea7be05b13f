import t from 'tap';
import { setup } from '../helpers/harness.js';
import { pgTerminator } from '../helpers/pg-terminate.js';
import { spawnWorker } from '../helpers/processes.js';
import { indexReport, complete } from '../helpers/indexed.js';
import { waitFor } from '../helpers/wait.js';

// Postgres connections terminated mid-request (pg_terminate_backend from an admin connection, as a
// failover or an operator would): batches sent with Idempotency-Keys and searches running beside
// them. Bounds: a batch's retries succeed within 20 s of its first try (no key stuck in flight),
// reads never answer 500, and every product is indexed exactly once within 30 s of the last kill.
const BATCH_BOUND_MS = 20_000;
const INDEX_BOUND_MS = 30_000;

// The searches beside the batches run back to back with the same key: no rate limit, which they would
// otherwise exhaust (more than 200 a second on this small store) and answer the batches 429.
const h = await setup({ SEARCH_CACHE_TTL_MS: '0', RATE_LIMIT_SECRET_PER_S: '1000000' });
t.teardown(() => h.close());
const killer = await pgTerminator(h.config.databaseUrl);
t.teardown(() => killer.close());

const products = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `g${from + i}`,
    name: { en: `Failover teapot ${from + i} ${['red', 'blue', 'green'][i % 3]}` },
    price: 9,
    currency: 'USD',
  }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('terminated connections: batch retries succeed, reads never 500, keys never stuck', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const worker = spawnWorker(t, h.config);
  const first = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products(0, 100) } });
  t.equal(first.status, 200);

  // Searches all along: every answer's status is counted.
  const searchStatuses = new Map<number, number>();
  let searching = true;
  const words = ['teapot', 'red', 'blue', 'green', 'failover', 'teapot red', 'blue failover'];
  const searches = (async () => {
    for (let i = 0; searching; i++) {
      const res = await h.api.call('GET', `/v1/search?q=${encodeURIComponent(words[i % words.length])}&page=${1 + (i % 3)}`, { key });
      searchStatuses.set(res.status, (searchStatuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500 && res.status !== 503) t.fail(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
  })();

  const batchStatuses = new Map<number, number>();
  let kills = 0;
  let slowest = 0;
  for (let b = 1; b <= 14; b++) {
    const body = { upsert: products(b * 100, 100) };
    const headers = { 'idempotency-key': `fault-batch-${b}` };
    const started = Date.now();
    // Kill every connection of the database 0-300 ms after sending: mid-transaction, mid-release, idle in the pool.
    const pending = h.api.call('POST', '/v1/products/batch', { key, body, headers });
    await sleep(Math.floor(Math.random() * 300));
    kills += await killer.terminateAll();
    let res = await pending;
    for (;;) {
      batchStatuses.set(res.status, (batchStatuses.get(res.status) ?? 0) + 1);
      if (res.status === 200) break;
      t.ok([409, 503].includes(res.status), `batch ${b}: a retryable answer (${res.status} ${res.body?.error?.code})`);
      if (res.status === 409) t.equal(res.body.error.code, 'idempotency_in_progress');
      t.ok(res.headers.get('retry-after'), 'with Retry-After');
      if (Date.now() - started > BATCH_BOUND_MS) {
        t.fail(`batch ${b}: still ${res.status} ${res.body?.error?.code} after ${BATCH_BOUND_MS} ms`);
        break;
      }
      await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
      res = await h.api.call('POST', '/v1/products/batch', { key, body, headers });
    }
    slowest = Math.max(slowest, Date.now() - started);
    t.equal(res.status, 200, `batch ${b} acknowledged`);
    t.equal(res.body.upserted + res.body.unchanged, 100, `batch ${b}: every item stored once`);
  }
  const lastKill = Date.now();
  searching = false;
  await searches;
  t.comment(
    `killed ${kills} connections; batch answers ${JSON.stringify(Object.fromEntries(batchStatuses))}; slowest batch ${slowest} ms; search answers ${JSON.stringify(Object.fromEntries(searchStatuses))}`,
  );
  t.notOk(searchStatuses.get(500), 'no search answered 500');
  t.ok((searchStatuses.get(200) ?? 0) > 0, 'searches answered meanwhile');

  const inFlight = await h.api.deps.db('idempotency_keys').where({ tenant_id: tenantId, state: 'in_flight' }).count({ n: '*' });
  t.equal(Number(inFlight[0].n), 0, 'no Idempotency-Key left in flight');

  await waitFor(async () => complete(await indexReport(h.api.deps.db, tenantId)), INDEX_BOUND_MS, 'every product indexed', 250).catch(async (err) => {
    t.fail(`not indexed: ${JSON.stringify(await indexReport(h.api.deps.db, tenantId)).slice(0, 500)} ${worker.log().slice(-2000)}`);
    throw err;
  });
  const report = await indexReport(h.api.deps.db, tenantId);
  t.comment(`every product indexed ${Date.now() - lastKill} ms after the last kill; lost: ${report.missing.length}`);
  t.equal(await h.api.deps.repos.products.count(tenantId), 1500, 'all 1,500 acknowledged products stored');
  t.same(report.duplicated, [], 'each indexed exactly once');
});
