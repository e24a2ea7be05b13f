import t from 'tap';
import { Redis } from 'ioredis';
import { setup } from '../helpers/harness.js';
import { freePort } from '../helpers/redis-server.js';
import { canonicalJson, sha256 } from '../../shared/platform/ids.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { idempotencyRepo } from '../../shared/platform/db/idempotency.repo.js';
import { idempotencyPendingRepo, type PendingAnswer } from '../../shared/platform/db/idempotency-pending.repo.js';
import { IdempotencyStore } from '../../shared/platform/db/idempotency-store.js';
import { Sealer } from '../../shared/platform/sealed.js';
import { createLogger } from '../../shared/platform/logger.js';

// Answers kept in Redis while Postgres was down (IdempotencyStore): replayed from there to the
// tenant that owns them, moved into Postgres, and a request whose answer can be kept nowhere is
// answered 503. The outage itself, through real processes, is test/faults/pg-down-idempotency.
const h = await setup();
t.teardown(() => h.close());
// Flushes only when a test says so.
await h.api.deps.idempotency.stop();
const db = h.api.deps.db;
const repo = h.api.deps.repos.idempotency;
const pending = idempotencyPendingRepo(h.api.deps.redis, h.config.queuePrefix);
const sealer = new Sealer(h.config.secretEncryptionKey);

const hashOf = (body: unknown) => sha256(`POST /v1/keys\n${canonicalJson(body)}`);
const keysNamed = async (tenantId: string, name: string) => Number((await db('api_keys').where({ tenant_id: tenantId, name }).count().first())!.count);
/** What a request that ran while Postgres was down left: its claim in flight, its answer in Redis. */
async function leftByOutage(tenantId: string, idem: string, body: unknown, answer: unknown): Promise<PendingAnswer> {
  await repo.claim(tenantId, idem, hashOf(body));
  const kept = {
    tenant_id: tenantId,
    key: idem,
    request_hash: hashOf(body),
    status_code: 201,
    response_body: repo.stored(answer, {}),
    kept_until: Date.now() + 3_600_000,
  };
  await pending.put(kept);
  return kept;
}
const post = (key: string, idem: string, body: unknown) => h.api.call('POST', '/v1/keys', { key, body, headers: { 'idempotency-key': idem } });

t.test('a retry while the claim is still in flight replays the answer kept in Redis, and moves it into Postgres', async (t) => {
  const a = await h.tenant();
  const body = { name: 'kept in redis', kind: 'secret' };
  await leftByOutage(a.id, 'pending-0001', body, { id: 'key_first', key: 'sk_first' });
  const res = await post(a.key, 'pending-0001', body);
  t.equal(res.status, 201);
  t.same(res.body, { id: 'key_first', key: 'sk_first' });
  t.equal(res.headers.get('idempotent-replayed'), 'true');
  t.equal(await keysNamed(a.id, 'kept in redis'), 0, 'nothing created again');
  const row = await db('idempotency_keys').where({ tenant_id: a.id, key: 'pending-0001' }).first();
  t.equal(row.state, 'done');
  t.equal(row.status_code, 201);
  t.same(sealer.open(row.response_body), { id: 'key_first', key: 'sk_first' }, 'kept sealed in Postgres');
  t.equal(await pending.get(a.id, 'pending-0001'), null, 'gone from Redis');
});

t.test("another tenant's kept answer is never replayed; another body is a reuse", async (t) => {
  const a = await h.tenant();
  const b = await h.tenant();
  const body = { name: 'isolated', kind: 'secret' };
  await leftByOutage(a.id, 'pending-0002', body, { id: 'key_of_a', key: 'sk_of_a' });
  const other = await post(b.key, 'pending-0002', body);
  t.equal(other.status, 201, 'tenant B runs its own request');
  t.not(other.body.id, 'key_of_a');
  t.equal(other.headers.get('idempotent-replayed'), null);
  t.equal(await keysNamed(b.id, 'isolated'), 1);
  const reused = await post(a.key, 'pending-0002', { name: 'something else', kind: 'secret' });
  t.equal(reused.status, 409);
  t.equal(reused.body.error.code, 'idempotency_key_reused');
  t.equal(await keysNamed(a.id, 'something else'), 0);
});

t.test('flush moves kept answers into Postgres and drops those past retention', async (t) => {
  const a = await h.tenant();
  await leftByOutage(a.id, 'pending-0003', { n: 3 }, { n: 3 });
  const old = await leftByOutage(a.id, 'pending-0004', { n: 4 }, { n: 4 });
  await pending.put({ ...old, kept_until: Date.now() - 1 });
  t.equal(await pending.get(a.id, 'pending-0004'), null, 'past retention: not replayed');
  t.ok((await h.api.deps.idempotency.flush()) >= 1);
  t.equal((await db('idempotency_keys').where({ tenant_id: a.id, key: 'pending-0003' }).first()).state, 'done');
  t.equal((await db('idempotency_keys').where({ tenant_id: a.id, key: 'pending-0004' }).first()).state, 'in_flight', 'the expired one not written');
  t.same(await pending.all(), [], 'Redis holds none');
});

t.test('an answer Postgres refuses for itself (its tenant deleted meanwhile) is dropped, not holding back the ones after it', async (t) => {
  const gone = await h.tenant();
  const a = await h.tenant();
  await pending.put({ ...(await leftByOutage(gone.id, 'pending-0007', { n: 7 }, { n: 7 })) });
  await db('tenants').where({ id: gone.id }).delete();
  await leftByOutage(a.id, 'pending-0008', { n: 8 }, { n: 8 });
  t.equal(await h.api.deps.idempotency.flush(), 1, 'the live tenant answer moved');
  t.equal((await db('idempotency_keys').where({ tenant_id: a.id, key: 'pending-0008' }).first()).state, 'done');
  t.same(await pending.all(), [], 'the refused one is dropped from Redis too');
});

t.test('an answer Postgres cannot take is kept in Redis; one neither can take is a 503', async (t) => {
  const a = await h.tenant();
  const logger = createLogger('silent');
  const deadDb = createDb(`postgres://postgres@127.0.0.1:${await freePort()}/nowhere`);
  const deadRedis = new Redis(`redis://127.0.0.1:${await freePort()}`, { lazyConnect: true, maxRetriesPerRequest: 0, commandTimeout: 500 });
  deadRedis.on('error', () => undefined);
  t.teardown(async () => {
    deadRedis.disconnect();
    await deadDb.destroy();
  });
  const opts = { ttlHours: h.config.idempotencyTtlHours, flushMs: 60_000 };
  const noPostgres = idempotencyRepo(deadDb, h.config.idempotencyTtlHours, sealer, 3);
  const halfDown = new IdempotencyStore(noPostgres, pending, logger, opts);
  await halfDown.keep(a.id, 'pending-0005', 'hash-5', 202, { accepted: true }, { 'X-Job-Id': 'job_5' });
  const kept = await pending.get(a.id, 'pending-0005');
  t.equal(kept?.status_code, 202, 'kept in Redis');
  t.same(repo.replay({ ...kept!, state: 'done', created_at: new Date(), expires_at: new Date() }), {
    body: { accepted: true },
    headers: { 'X-Job-Id': 'job_5' },
  });
  const claim = await halfDown.claim(a.id, 'pending-0005', 'hash-5');
  t.equal(claim.owned, false, 'Postgres down: the claim is answered from Redis');

  const allDown = new IdempotencyStore(noPostgres, idempotencyPendingRepo(deadRedis, h.config.queuePrefix), logger, opts);
  await t.rejects(allDown.keep(a.id, 'pending-0006', 'hash-6', 200, { ok: true }), { code: 'dependency_unavailable', status: 503 });
});
