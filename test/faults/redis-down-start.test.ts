import t from 'tap';
import { setup } from '../helpers/harness.js';
import { startPrivateRedis } from '../helpers/redis-server.js';
import { spawnApi, spawnWorker } from '../helpers/processes.js';
import { indexReport, complete } from '../helpers/indexed.js';
import { waitFor } from '../helpers/wait.js';

// An API process (re)started while Redis is down (a crash, a deploy, a new replica during the
// outage): search needs no Redis, so it must come up and serve, say it is not ready, and follow
// Redis once it answers (readiness, credential invalidations) with no restart. Bound: the process
// answering within 60 s of its start (spawnApi's own wait); Redis followed within 10 s of answering.
const FOLLOW_BOUND_MS = 10_000;

const redis = await startPrivateRedis();
const h = await setup({ REDIS_URL: redis.url });
// The harness clears its Redis prefix on close, so Redis must be up then; it stops last.
t.teardown(async () => {
  if (!redis.running()) await redis.start();
  await h.close();
  await redis.close();
});

t.test('an API process started during a Redis outage serves search and follows Redis once it is back', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const worker = spawnWorker(t, h.config);
  const batch = await h.api.call('POST', '/v1/products/batch', {
    key,
    body: { upsert: [{ id: 'u1', name: { en: 'Outage lamp' }, price: 3, currency: 'USD' }] },
  });
  t.equal(batch.status, 200);
  await waitFor(
    async () => complete(await indexReport(h.api.deps.db, tenantId)),
    30_000,
    () => `the product indexed (${worker.log().slice(-1000)})`,
  );
  const created = await h.api.call('POST', '/v1/keys', { key, body: { name: 'later revoked', kind: 'secret' } });
  t.equal(created.status, 201);

  await redis.stop();
  const late = await spawnApi(t, h.config);
  const search = await late.call('GET', '/v1/search?q=lamp', { key });
  t.equal(search.status, 200, 'search answers without Redis');
  t.same(search.body.ids, ['u1']);
  const ready = await late.call('GET', '/readyz');
  t.equal(ready.status, 503, 'not ready while Redis is down');
  t.match(ready.body.error, { code: 'not_ready', details: { redis: 'down', postgres: 'ok' } });
  t.equal((await late.call('GET', '/v1/auth/whoami', { key: created.body.key })).status, 200, 'the key is valid (and now cached)');

  await redis.start();
  await waitFor(async () => (await late.call('GET', '/readyz')).status === 200, FOLLOW_BOUND_MS, 'ready once Redis answers');
  // Subscribed now: a revocation on another process reaches it through Redis.
  t.equal((await h.api.call('DELETE', `/v1/keys/${created.body.id}`, { key })).status, 200);
  await waitFor(async () => (await late.call('GET', '/v1/auth/whoami', { key: created.body.key })).status === 401, FOLLOW_BOUND_MS, 'the revoked key refused');
  t.equal(late.child.exitCode, null, 'never restarted');
});
