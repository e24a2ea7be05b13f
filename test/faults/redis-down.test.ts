import t, { type Test } from 'tap';
import { setup, type Reply } from '../helpers/harness.js';
import { startPrivateRedis } from '../helpers/redis-server.js';
import { spawnApi, spawnWorker } from '../helpers/processes.js';
import { indexReport, complete } from '../helpers/indexed.js';
import { waitFor } from '../helpers/wait.js';

// Redis down (the test's own redis-server stopped): requests that need it answer within a bound
// with the documented status, never hang; what was committed meanwhile is not lost; a key revoked
// during the outage is refused by every API process once Redis is back. Bounds: each request 5 s;
// the revoked key refused by the other API process within 10 s of Redis answering again; the
// batch sent during the outage indexed within 60 s of it (the sweep runs every 10 s here).
const REQUEST_BOUND_MS = 5_000;
const REVOKE_SEEN_BOUND_MS = 10_000;
const INDEX_BOUND_MS = 60_000;

const redis = await startPrivateRedis();
const h = await setup({ REDIS_URL: redis.url, SWEEP_EVERY_MS: '10000' });
// The harness clears its Redis prefix on close, so Redis must be up then; it stops last.
t.teardown(async () => {
  if (!redis.running()) await redis.start();
  await h.close();
  await redis.close();
});

/** The request must answer within the bound; its time is reported, not asserted. */
async function bounded(t: Test, what: string, request: () => Promise<Reply>): Promise<Reply> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const res = await Promise.race([
    request(),
    new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error(`${what}: no answer within ${REQUEST_BOUND_MS} ms`)), REQUEST_BOUND_MS))),
  ]).finally(() => clearTimeout(timer));
  t.comment(`${what}: ${res.status} ${res.body?.error?.code ?? ''} in ${Date.now() - started} ms`);
  return res;
}

t.test('Redis down: bounded answers, nothing lost, revocation reaches every process', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const worker = spawnWorker(t, h.config, { SWEEP_EVERY_MS: '10000' });
  const other = await spawnApi(t, h.config);
  const created = await h.api.call('POST', '/v1/keys', { key, body: { name: 'doomed', kind: 'secret' } });
  t.equal(created.status, 201);
  const doomed: string = created.body.key;
  const seed = await h.api.call('POST', '/v1/products/batch', {
    key,
    body: { upsert: [{ id: 'seed', name: { en: 'Outage umbrella' }, price: 4, currency: 'USD' }] },
  });
  t.equal(seed.status, 200);
  await waitFor(async () => complete(await indexReport(h.api.deps.db, tenantId)), 30_000, 'the seed product indexed');
  // The other process has the doomed key cached, as a busy process would.
  t.equal((await other.call('GET', '/v1/auth/whoami', { key: doomed })).status, 200);

  await redis.stop();

  const revoked = await bounded(t, 'revoke', () => h.api.call('DELETE', `/v1/keys/${created.body.id}`, { key }));
  t.equal(revoked.status, 200, 'the revocation is committed and says so');
  t.equal((await bounded(t, 'revoked key on the revoking process', () => h.api.call('GET', '/v1/auth/whoami', { key: doomed }))).status, 401);

  const upsert = Array.from({ length: 300 }, (_, i) => ({ id: `d${i}`, name: { en: `Outage umbrella ${i}` }, price: 4, currency: 'USD' }));
  const batch = await bounded(t, 'batch', () =>
    h.api.call('POST', '/v1/products/batch', { key, body: { upsert }, headers: { 'idempotency-key': 'outage-batch-1' } }),
  );
  t.equal(batch.status, 200, 'a committed batch is acknowledged');
  t.equal(batch.body.upserted, 300);
  t.ok(batch.body.visible_within_s >= 10, `visible_within_s says the sweep will index it (${batch.body.visible_within_s})`);

  const reindex = await bounded(t, 'reindex', () => h.api.call('POST', '/v1/reindex', { key, body: { mode: 'full' } }));
  t.equal(reindex.status, 503);
  t.equal(reindex.body.error.code, 'dependency_unavailable');
  t.ok(Number(reindex.headers.get('retry-after')) >= 1, 'with Retry-After');

  const search = await bounded(t, 'search', () => h.api.call('GET', '/v1/search?q=umbrella', { key }));
  t.equal(search.status, 200, 'search needs no Redis');
  t.equal(search.body.total, 1);
  const searchOther = await bounded(t, 'search on the other process', () => other.call('GET', '/v1/search?q=umbrella', { key }));
  t.equal(searchOther.status, 200);

  // Its invalidation cannot reach the other process, which re-reads credentials every second while its subscription is down.
  await waitFor(
    async () => (await other.call('GET', '/v1/auth/whoami', { key: doomed })).status === 401,
    3_000,
    'the other process refusing the revoked key during the outage',
  );

  // Down long enough that commands queued during the outage (the searches' billing) time out.
  await new Promise((r) => setTimeout(r, h.config.redisCommandTimeoutMs + 1500));
  await redis.start();
  const back = Date.now();
  await waitFor(
    async () => (await other.call('GET', '/v1/auth/whoami', { key: doomed })).status === 401,
    REVOKE_SEEN_BOUND_MS,
    'the other process refusing the revoked key',
  );
  t.comment(`the other process refused the revoked key ${Date.now() - back} ms after Redis came back`);
  t.equal((await other.call('GET', '/v1/auth/whoami', { key: doomed })).body.error.code, 'key_revoked');

  await waitFor(async () => complete(await indexReport(h.api.deps.db, tenantId)), INDEX_BOUND_MS, 'the outage batch indexed', 250).catch(async (err) => {
    t.fail(`${JSON.stringify(await indexReport(h.api.deps.db, tenantId)).slice(0, 300)} ${worker.log().slice(-1500)}`);
    throw err;
  });
  const report = await indexReport(h.api.deps.db, tenantId);
  t.comment(`the outage batch indexed ${Date.now() - back} ms after Redis came back; products lost: ${report.missing.length}`);
  t.same(report.duplicated, []);
  // Billed searches answered during the outage are counted once Redis takes them.
  const day = new Date().toISOString().slice(0, 10);
  let billed = 0;
  await waitFor(
    async () => (billed = await h.api.deps.usage.dayCount(tenantId, day)) === 2,
    10_000,
    () => `both outage searches billed (${billed})`,
  );
  const retried = await h.api.call('POST', '/v1/reindex', { key, body: { mode: 'full' } });
  t.equal(retried.status, 202, 'reindex accepted once Redis answers');
});

t.test('a process whose subscription was down drops its cached credentials when it is back', async (t) => {
  const { key } = await h.tenant();
  const created = await h.api.call('POST', '/v1/keys', { key, body: { name: 'missed', kind: 'secret' } });
  const missed: string = created.body.key;
  t.equal((await h.api.call('GET', '/v1/auth/whoami', { key: missed })).status, 200, 'cached');
  await redis.stop();
  // Revoked by another process whose invalidation this one never received.
  await h.api.deps.db('api_keys').where({ id: created.body.id }).update({ revoked_at: new Date() });
  await redis.start();
  await waitFor(async () => (await h.api.call('GET', '/v1/auth/whoami', { key: missed })).status === 401, REVOKE_SEEN_BOUND_MS, 'the revoked key refused');
  t.pass('refused well before AUTH_CACHE_TTL_MS (30 s)');
});
