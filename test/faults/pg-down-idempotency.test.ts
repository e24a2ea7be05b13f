import t from 'tap';
import { setup } from '../helpers/harness.js';
import { spawnApi } from '../helpers/processes.js';
import { startPgProxy } from '../helpers/pg-proxy.js';
import { waitFor } from '../helpers/wait.js';
import { idempotencyPendingRepo } from '../../shared/platform/db/idempotency-pending.repo.js';

// Postgres goes away right after a write commits and stays away longer than an Idempotency-Key
// claim's lease (3 s here instead of 15 s, IDEMPOTENCY_LEASE_S): the API processes reach Postgres
// through a TCP proxy the test cuts the moment the write's transaction is committed, so the answer
// cannot be kept in Postgres. The write must still be answered once, and a retry with the same key
// (during the outage, after it, after an API restart) must get that answer, never run again.
const LEASE_S = 3;
const OUTAGE_MS = 3 * LEASE_S * 1000;
// Longer than a request waits for a pooled connection (10 s): the first request's own save into
// Postgres, still waiting when Postgres comes back, has given up by then.
const LONG_OUTAGE_MS = 13_000;

const h = await setup();
t.teardown(() => h.close());
// The test's in-process API (its direct connection for checks) shares the Redis prefix, and would move
// the answers into Postgres too: only the spawned API processes, which reach Postgres through the proxy, may.
await h.api.deps.idempotency.stop();
const proxy = await startPgProxy(h.config.databaseUrl);
t.teardown(() => proxy.close());
const db = h.api.deps.db;
const pending = idempotencyPendingRepo(h.api.deps.redis, h.config.queuePrefix);
const env = (flushMs: number) => ({ DATABASE_URL: proxy.url, IDEMPOTENCY_LEASE_S: String(LEASE_S), IDEMPOTENCY_FLUSH_MS: String(flushMs) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const row = (tenantId: string, key: string) => db('idempotency_keys').where({ tenant_id: tenantId, key }).first();

t.test('a batch acknowledged as Postgres goes: retries during and after the outage, across an API restart, replay it', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  let api = await spawnApi(t, h.config, env(250));
  const body = { upsert: ['o1', 'o2', 'o3'].map((id) => ({ id, name: { en: `Outage kettle ${id}` }, price: 7, currency: 'USD' })) };
  const send = () => api.call('POST', '/v1/products/batch', { key, body, headers: { 'idempotency-key': 'outage-batch-0001' } });

  const cut = proxy.cutAfterCommitOf('INSERT INTO products');
  const first = await send();
  await cut;
  const wentDown = Date.now();
  t.equal(first.status, 200, `acknowledged (${JSON.stringify(first.body)})`);
  t.equal(first.body.upserted, 3);
  t.ok(proxy.isDown(), 'Postgres was cut after the commit');
  const stored = await db('products').where({ tenant_id: tenantId }).orderBy('id').select('id', 'updated_at');
  t.equal(stored.length, 3, 'the batch is committed');
  t.equal((await row(tenantId, 'outage-batch-0001')).state, 'in_flight', 'Postgres never got the answer');
  const kept = await pending.get(tenantId, 'outage-batch-0001');
  t.equal(kept?.status_code, 200, 'the answer waits in Redis');
  t.notOk(JSON.stringify(kept).includes('upserted'), 'sealed there as in Postgres');

  const during = await send();
  t.equal(during.status, 200, 'a retry during the outage gets the first answer');
  t.same(during.body, first.body);
  t.equal(during.headers.get('idempotent-replayed'), 'true');

  // The process that answered dies during the outage; another starts while Postgres is still away.
  await api.kill();
  api = await spawnApi(t, h.config, env(250));
  await sleep(wentDown + OUTAGE_MS - Date.now());
  proxy.restore();
  t.comment(`Postgres was down ${Date.now() - wentDown} ms (lease ${LEASE_S} s)`);

  await waitFor(
    async () => (await row(tenantId, 'outage-batch-0001'))?.state === 'done',
    20_000,
    () => `the answer moved into Postgres (${api.log().slice(-1500)})`,
  );
  // The flush saves the answer in Postgres, then takes it out of Redis: the second step follows the first.
  await waitFor(async () => (await pending.get(tenantId, 'outage-batch-0001')) === null, 5_000, 'the answer taken out of Redis');
  t.equal(await pending.get(tenantId, 'outage-batch-0001'), null, 'and no longer waits in Redis');
  const after = await send();
  t.equal(after.status, 200, 'a retry after the outage gets the first answer');
  t.same(after.body, first.body, 'the same body (upserted 3, not unchanged 3)');
  t.equal(after.headers.get('idempotent-replayed'), 'true');

  const now = await db('products').where({ tenant_id: tenantId }).orderBy('id').select('id', 'updated_at');
  t.same(now, stored, 'no product written again');
  const jobs = await h.api.deps.queues.get('catalog').getJobs(['waiting', 'prioritized', 'active', 'delayed']);
  t.equal(jobs.filter((j) => j.data.input.tenantId === tenantId).length, 1, 'one index job queued, not one per try');
});

t.test('a mapping change acknowledged as Postgres goes: the first retry after the outage replays it with its X-Job-Id', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  // No flush but the one at start: the retry itself finds the answer in Redis (its claim takes over the lapsed one).
  const api = await spawnApi(t, h.config, env(600_000));
  const body = { items: [{ raw_name: 'Colour', canonical_name: 'color' }] };
  const send = () => api.call('PUT', '/v1/attributes/mapping', { key, body, headers: { 'idempotency-key': 'outage-mapping-0001' } });

  const cut = proxy.cutAfterCommitOf('INSERT INTO jobs');
  const first = await send();
  await cut;
  const wentDown = Date.now();
  t.equal(first.status, 200, `acknowledged (${JSON.stringify(first.body)})`);
  t.match(first.headers.get('x-job-id'), /^job_/);
  await sleep(wentDown + LONG_OUTAGE_MS - Date.now());
  proxy.restore();
  t.equal((await row(tenantId, 'outage-mapping-0001')).state, 'in_flight', 'the claim lapsed unanswered in Postgres');

  const after = await send();
  t.equal(after.status, 200, `a retry after the outage gets the first answer (${JSON.stringify(after.body)})`);
  t.same(after.body, first.body, 'the same mapping and updated_at');
  t.equal(after.headers.get('x-job-id'), first.headers.get('x-job-id'), 'the same reindex job');
  t.equal(after.headers.get('idempotent-replayed'), 'true');
  t.equal((await row(tenantId, 'outage-mapping-0001')).state, 'done', 'the retry moved the answer into Postgres');
  t.equal(await pending.get(tenantId, 'outage-mapping-0001'), null);
  const jobs = await db('jobs').where({ tenant_id: tenantId });
  t.equal(jobs.length, 1, 'one reindex job row');
  const mapping = await db('attribute_mappings').where({ tenant_id: tenantId }).first();
  t.equal(new Date(mapping.updated_at).toISOString(), first.body.updated_at, 'the mapping was not written again');
});
