import t from 'tap';
import { setup } from '../helpers/harness.js';
import { startPrivateRedis } from '../helpers/redis-server.js';
import { spawnApi, spawnWorker } from '../helpers/processes.js';
import { indexReport, complete } from '../helpers/indexed.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver } from '../notifications/receiver.js';
import { mockSubscriptionEvent } from '../billing/mock-event.js';

// Redis down (the test's own redis-server stopped) while a write whose follow-up is a queued job
// is acknowledged: the write is committed in Postgres, the answer says so (never a 503 for a write
// that happened, whose retry would then be refused), and the follow-up runs once Redis is back,
// with no process restarted. Bound: each follow-up within 60 s of Redis answering (the sweep runs
// every 10 s here).
const FOLLOW_UP_BOUND_MS = 60_000;
// Three outages, each with processes started and stopped: more than tap's default 120 s on a loaded machine.
t.setTimeout(300_000);

const redis = await startPrivateRedis();
const MOCK_SECRET = 'mock_whsec_followups_0123';
const env = {
  SWEEP_EVERY_MS: '10000',
  TRANSLATION_PROVIDER: 'none',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_MS: '5000',
  WEBHOOK_MAX_ATTEMPTS: '3',
  MOCK_WEBHOOK_SECRET: MOCK_SECRET,
  // The daily provider reconcile never runs during the test (it also re-queues unapplied events).
  BILLING_RECONCILE_CRON: '0 0 1 1 *',
};
const h = await setup({ REDIS_URL: redis.url, ...env });
// The harness clears its Redis prefix on close, so Redis must be up then; it stops last.
t.teardown(async () => {
  if (!redis.running()) await redis.start();
  await h.close();
  await redis.close();
});

t.test('a translation decision during a Redis outage is acknowledged and reaches search once Redis is back', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const worker = spawnWorker(t, h.config, env);
  const batch = await h.api.call('POST', '/v1/products/batch', {
    key,
    body: { upsert: [{ id: 'p1', name: { en: 'Kitchen chair' }, price: 1, currency: 'USD' }] },
  });
  t.equal(batch.status, 200);
  await waitFor(async () => complete(await indexReport(h.api.deps.db, tenantId)), 30_000, 'the product indexed');
  const started = await h.api.call('POST', '/v1/translate/backfill', { key, body: { target_locale: 'ar', fields: ['name'] } });
  t.equal(started.status, 202);
  const item = await waitFor(
    async () => (await h.api.call('GET', '/v1/translate/review?status=pending', { key })).body.data?.[0],
    30_000,
    () => `a pending item (${worker.log().slice(-1000)})`,
  );

  // A machine translation waiting for a person, not yet in the index (as the pipeline leaves it before index-translations).
  await h.api.deps.db('translation_items').where({ tenant_id: tenantId, id: item.id }).update({ status: 'machine', translated_text: 'كرسي مطبخ' });
  // The decision is made on an API process that is gone (a deploy, a crash) before Redis is back.
  const doomed = await spawnApi(t, h.config, env);

  await redis.stop();
  const approved = await doomed.call('POST', `/v1/translate/review/${item.id}`, { key, body: { action: 'approve' } });
  t.equal(approved.status, 200, `the committed decision is acknowledged (${approved.body?.error?.code ?? approved.status})`);
  t.equal(approved.body.status, 'approved');
  const stored = await h.api.deps.db('translation_items').where({ tenant_id: tenantId, id: item.id }).first();
  t.equal(stored.status, 'approved', 'and stored');
  await doomed.kill('SIGKILL');

  await redis.start();
  const back = Date.now();
  await waitFor(
    async () => (await h.api.call('GET', `/v1/search?q=${encodeURIComponent('كرسي')}`, { key })).body.ids?.includes('p1'),
    FOLLOW_UP_BOUND_MS,
    () => `the approved text searchable (${worker.log().slice(-1500)})`,
    250,
  );
  t.comment(`the decision reached search ${Date.now() - back} ms after Redis came back`);
  t.equal(await h.api.deps.repos.products.countUnindexed(tenantId), 0, 'nothing left unindexed');
});

t.test('a notification whose attempt Redis lost is still delivered, without a restart', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  const worker = spawnWorker(t, h.config, env);
  await waitFor(
    async () => (await h.api.deps.queues.get('notifications').getWorkersCount()) >= 1,
    60_000,
    () => `the worker (${worker.log()})`,
  );
  const made = await h.api.call('POST', '/v1/webhooks', { key, body: { url: `${rx.url}/hooks`, kinds: ['job.failed'] } });
  t.equal(made.status, 201);
  rx.state.secret = made.body.secret;
  const delivery = (id: string) => h.api.deps.db('webhook_deliveries').where({ tenant_id: tenantId, id }).first();

  // A retry waiting in Redis (delayed job) when Redis restarts empty.
  rx.state.answer = (n) => ({ status: n === 1 ? 500 : 204 });
  const first = await h.api.call('POST', `/v1/webhooks/${made.body.id}/test`, { key });
  t.equal(first.status, 202);
  await waitFor(
    async () => (await delivery(first.body.id))?.attempts === 1,
    30_000,
    () => `the first attempt made (${worker.log().slice(-1000)})`,
  );
  await waitFor(async () => (await h.api.deps.queues.get('notifications').getDelayedCount()) === 1, 10_000, 'the retry waiting in Redis');
  await redis.restart();
  await waitFor(
    async () => (await delivery(first.body.id))?.status === 'delivered',
    FOLLOW_UP_BOUND_MS,
    () => `the retry delivered (${worker.log().slice(-1500)})`,
    250,
  );
  t.pass('the retry lost with Redis was delivered');

  // A test notification asked for while Redis is down: recorded, so answered as queued, and sent once Redis is back.
  await redis.stop();
  const during = await h.api.call('POST', `/v1/webhooks/${made.body.id}/test`, { key });
  t.equal(during.status, 202, `the recorded delivery is acknowledged (${during.body?.error?.code ?? during.status})`);
  await redis.start();
  if (during.status === 202) {
    await waitFor(
      async () => (await delivery(during.body.id))?.status === 'delivered',
      FOLLOW_UP_BOUND_MS,
      () => `the outage delivery sent (${worker.log().slice(-1500)})`,
      250,
    );
    t.equal(rx.received.filter((r) => r.headers['webhook-id'] === during.body.id).length, 1, 'sent once');
  }
  const stuck = await h.api.deps.db('webhook_deliveries').where({ tenant_id: tenantId, status: 'pending' });
  t.same(stuck, [], 'no delivery left pending');
});

t.test('a billing webhook stored while Redis is down is applied once Redis is back, though its API process is gone', async (t) => {
  const { id: tenantId } = await h.tenant();
  const worker = spawnWorker(t, h.config, env);
  await waitFor(
    async () => (await h.api.deps.queues.get('billing').getWorkersCount()) >= 1,
    60_000,
    () => `the worker (${worker.log()})`,
  );
  const doomed = await spawnApi(t, h.config, env);

  await redis.stop();
  const delivery = mockSubscriptionEvent(MOCK_SECRET, {
    id: 'mev_outage',
    type: 'subscription.created',
    tenantId,
    subscription: { id: 'msub_outage', customer: 'mcus_outage' },
  });
  const res = await doomed.call('POST', '/v1/billing/webhooks/mock', delivery);
  t.equal(res.status, 200, 'stored and acknowledged');
  await doomed.kill('SIGKILL');
  await redis.start();
  const event = () => h.api.deps.db('billing_events').where({ provider: 'mock', event_id: 'mev_outage' }).first();
  await waitFor(
    async () => (await event())?.applied_at,
    FOLLOW_UP_BOUND_MS,
    () => `the event applied (${worker.log().slice(-1500)})`,
    250,
  );
  t.equal((await event()).outcome, 'applied');
  const sub = await h.api.deps.db('billing_subscriptions').where({ tenant_id: tenantId }).first();
  t.equal(sub?.plan_code, 'growth', 'the subscription follows the event');
  // Every connection's errors are heard and logged, a few lines per outage: no stack printed by a
  // client with no listener (BullMQ's queues, ioredis' "Unhandled error event") to bury the log.
  const printed = worker
    .log()
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('{'));
  t.same(printed.slice(0, 5), [], 'the outage is in log lines, no stack traces printed');
  const redisErrors = worker
    .log()
    .split('\n')
    .filter((l) => l.includes('"msg":"redis error"')).length;
  t.ok(redisErrors <= 4, `Redis errors logged once per client per 30 s, not per reconnect attempt (${redisErrors})`);
});
