import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { startReceiver } from './receiver.js';

const { h, workers } = await setupWithWorkers({
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_MS: '1100',
  WEBHOOK_MAX_ATTEMPTS: '3',
  WEBHOOK_DISABLE_AFTER: '2',
});
const hooks = h.config.ops.webhooks;
const { id: tenantId, key } = await h.tenant();
const rx = await startReceiver();
t.teardown(() => rx.close());

const register = async (body: Record<string, unknown>) => h.api.call('POST', '/v1/webhooks', { key, body });
const deliveries = async (id: string) => (await h.api.call('GET', `/v1/webhooks/${id}/deliveries`, { key })).body.data;

const made = await register({ url: `${rx.url}/hooks`, kinds: ['job.succeeded', 'job.failed', 'catalog.sync_completed'], description: 'main' });
rx.state.secret = made.body.secret;

t.test('a receiver is registered with a secret shown once', async (t) => {
  t.equal(made.status, 201);
  t.match(made.body.secret, /^whsec_[A-Za-z0-9+/=]{32}$/);
  t.equal(made.body.secret_last4, made.body.secret.slice(-4));
  const got = await h.api.call('GET', `/v1/webhooks/${made.body.id}`, { key });
  t.equal(got.status, 200);
  t.notOk('secret' in got.body, 'never shown again');
  const row = await h.api.deps.db('webhook_receivers').where({ id: made.body.id }).first();
  t.notMatch(JSON.stringify(row.secret), made.body.secret.slice(6, 20), 'stored sealed');
  const other = await h.tenant('Other');
  t.equal((await h.api.call('GET', `/v1/webhooks/${made.body.id}`, { key: other.key })).status, 404, 'another store does not see it');
  t.equal((await register({ url: 'ftp://x.example/', kinds: ['job.failed'] })).status, 400);
  t.equal((await register({ url: `${rx.url}/x`, kinds: ['nope'] })).status, 400);
});

t.test('the test delivery arrives signed; the receiver verifies it independently', async (t) => {
  rx.received.length = 0;
  const res = await h.api.call('POST', `/v1/webhooks/${made.body.id}/test`, { key });
  t.equal(res.status, 202);
  await eventually(async () => rx.received.length === 1);
  const got = rx.received[0];
  t.ok(got.verified, 'signature verifies with the secret alone');
  t.ok(got.fresh, 'timestamp within 5 minutes');
  t.equal(got.headers['webhook-id'], res.body.id);
  t.match(JSON.parse(got.body), { id: res.body.id, type: 'webhook.test', data: { receiver_id: made.body.id } });
  const log = await eventually(async () =>
    (await deliveries(made.body.id)).find((d: { id: string; status: string }) => d.id === res.body.id && d.status === 'delivered'),
  );
  t.equal(log.attempts, 1);
  t.equal(log.last_status_code, 204);
});

t.test('a real job that finishes notifies job.succeeded and catalog.sync_completed', async (t) => {
  rx.received.length = 0;
  const job = await h.api.call('POST', '/v1/reindex', { key, body: {} });
  t.equal(job.status, 202);
  await eventually(async () => rx.received.length >= 2, 20_000);
  const types = rx.received
    .map((r) => JSON.parse(r.body))
    .map((b) => `${b.type}:${b.data.job_id}`)
    .sort();
  t.same(types, [`catalog.sync_completed:${job.body.job.id}`, `job.succeeded:${job.body.job.id}`]);
  t.ok(rx.received.every((r) => r.verified));
});

t.test('retries arrive with the same webhook-id and fresh timestamps; redirects are not followed', async (t) => {
  rx.received.length = 0;
  rx.state.answer = (n) =>
    n === 1 ? { status: 500 } : n === 2 ? { status: 302, headers: { location: 'http://example.com/' } } : { status: 200, body: 'x'.repeat(1_000_000) };
  const [id] = await h.api.deps.notifications.notify(tenantId, 'job.failed', { job_id: 'job_x', error: 'boom' });
  await eventually(async () => rx.received.length === 3, 15_000);
  t.same(
    rx.received.map((r) => r.headers['webhook-id']),
    [id, id, id],
    'the same message id on every attempt',
  );
  const stamps = rx.received.map((r) => Number(r.headers['webhook-timestamp']));
  t.ok(stamps[0] < stamps[1] && stamps[1] < stamps[2], `each attempt signed with a fresh timestamp (${stamps.join(', ')})`);
  t.ok(
    rx.received.every((r) => r.verified && r.fresh),
    'every attempt verifies',
  );
  t.equal(new Set(rx.received.map((r) => r.body)).size, 1, 'the body is the same');
  t.ok(rx.received[1].at - rx.received[0].at >= 1000 && rx.received[2].at - rx.received[1].at >= 2000, 'backoff doubles');
  const d = await eventually(async () => (await deliveries(made.body.id)).find((x: { id: string; status: string }) => x.id === id && x.status === 'delivered'));
  t.equal(d.attempts, 3, 'the redirect counted as a failure; the large answer was cut off and delivered');
  rx.state.answer = () => ({ status: 204 });
});

t.test('a receiver that keeps failing is disabled and the store is told', async (t) => {
  const watcher = await startReceiver();
  t.teardown(() => watcher.close());
  const w = await register({ url: `${watcher.url}/w`, kinds: ['webhook.receiver_disabled'] });
  watcher.state.secret = w.body.secret;
  const bad = await register({ url: `${rx.url}/bad`, kinds: ['job.failed'] });
  rx.state.answer = () => ({ status: 503 });
  hooks.maxAttempts = 1;
  t.teardown(() => {
    hooks.maxAttempts = 3;
    rx.state.answer = () => ({ status: 204 });
  });
  // Each notification fails its only attempt; WEBHOOK_DISABLE_AFTER=2 in a row disables.
  for (let i = 0; i < 2; i++) {
    await h.api.call('PATCH', `/v1/webhooks/${made.body.id}`, { key, body: { enabled: false } });
    const ids = await h.api.deps.notifications.notify(tenantId, 'job.failed', { n: i });
    t.equal(ids.length, 1, 'only the bad receiver is subscribed and enabled');
    await eventually(async () => (await deliveries(bad.body.id)).filter((d: { status: string }) => d.status === 'failed').length === i + 1, 10_000);
  }
  const after = (await h.api.call('GET', `/v1/webhooks/${bad.body.id}`, { key })).body;
  t.equal(after.enabled, false);
  t.match(after.disabled_reason, /2 notifications in a row/);
  await eventually(async () => watcher.received.length === 1);
  t.match(JSON.parse(watcher.received[0].body), { type: 'webhook.receiver_disabled', data: { receiver_id: bad.body.id } });
  t.ok(watcher.received[0].verified);
  t.same(await h.api.deps.notifications.notify(tenantId, 'job.failed', {}), [], 'a disabled receiver gets nothing');
  const again = await h.api.call('PATCH', `/v1/webhooks/${bad.body.id}`, { key, body: { enabled: true } });
  t.equal(again.body.enabled, true);
  t.equal(again.body.failure_streak, 0);
  await h.api.call('PATCH', `/v1/webhooks/${made.body.id}`, { key, body: { enabled: true } });
});

t.test('rotating the secret: new deliveries verify only with the new one', async (t) => {
  const rotated = await h.api.call('POST', `/v1/webhooks/${made.body.id}/rotate-secret`, { key });
  t.equal(rotated.status, 200);
  t.not(rotated.body.secret, made.body.secret);
  rx.received.length = 0;
  await h.api.call('POST', `/v1/webhooks/${made.body.id}/test`, { key });
  await eventually(async () => rx.received.length >= 1);
  t.notOk(rx.received[0].verified, 'the old secret no longer verifies');
  rx.state.secret = rotated.body.secret;
  await eventually(async () => rx.received.some((r) => r.verified), 10_000);
  t.pass('the retry verifies with the new secret');
});

t.test('private and loopback addresses are refused by default', async (t) => {
  hooks.allowPrivate = false;
  t.teardown(() => {
    hooks.allowPrivate = true;
  });
  for (const url of [`${rx.url}/x`, 'http://localhost:9/x', 'http://10.1.2.3/x', 'http://[::1]:9/x', 'http://169.254.169.254/latest', 'http://192.168.1.1/']) {
    const res = await register({ url, kinds: ['job.failed'] });
    t.equal(res.status, 400, url);
    t.equal(res.body.error.code, 'url_not_allowed');
  }
  // Registered while allowed, refused when sending: nothing reaches the address.
  rx.received.length = 0;
  const res = await h.api.call('POST', `/v1/webhooks/${made.body.id}/test`, { key });
  const d = await eventually(async () =>
    (await deliveries(made.body.id)).find((x: { id: string; status: string }) => x.id === res.body.id && x.status === 'failed'),
  );
  t.match(d.last_error, /private, loopback/);
  t.equal(rx.received.length, 0);
});

t.test('the delivery log pages newest first by time, whatever the ids', async (t) => {
  const other = await register({ url: `${rx.url}/log`, kinds: ['job.failed'] });
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  // Ids that sort against their times (real ids are random).
  const rows = ['msg_z', 'msg_a', 'msg_m', 'msg_b', 'msg_y'].map((id, i) => ({
    id,
    tenant_id: tenantId,
    receiver_id: other.body.id,
    kind: 'job.failed',
    payload: {},
    status: 'delivered',
    created_at: at(i),
  }));
  await h.api.deps.db('webhook_deliveries').insert(rows);
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; body: { data: Array<{ id: string }>; next_cursor: string | null } } = await h.api.call(
      'GET',
      `/v1/webhooks/${other.body.id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      { key },
    );
    t.equal(page.status, 200);
    seen.push(...page.body.data.map((d) => d.id));
    cursor = page.body.next_cursor;
  } while (cursor);
  t.same(seen, ['msg_y', 'msg_b', 'msg_m', 'msg_a', 'msg_z'], 'newest first across pages, each once');
  const forged = await h.api.call('GET', `/v1/webhooks/${other.body.id}/deliveries?cursor=msg_m`, { key });
  t.equal(forged.body.error.code, 'invalid_cursor');
});

t.test('metrics count deliveries', async (t) => {
  const { metricsText } = await import('../../shared/platform/metrics.js');
  const text = await metricsText();
  t.match(text, /pss_webhook_deliveries_total\{kind="job.failed",outcome="failed"\} [1-9]/);
  t.match(text, /pss_webhook_deliveries_total\{kind="webhook.test",outcome="refused"\} 1/);
  void workers;
});
