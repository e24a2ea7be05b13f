import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setup } from '../helpers/harness.js';

// No workers: each test runs Notifier.attempt itself, as two workers would after a lost lock (a stalled job re-run
// while its first run is still sending) or a requeue racing the attempt it re-queues.
const h = await setup({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '60000', WEBHOOK_MAX_ATTEMPTS: '3' });
t.teardown(() => h.close());
const { id: tenantId, key } = await h.tenant();
const notifier = h.api.deps.notifications;

/** A slow receiver: every request is answered `status` after `delayMs`. */
let status = 204;
const hits: string[] = [];
const server = createServer((req, res) => {
  hits.push(String(req.headers['webhook-id']));
  req.resume();
  req.on('end', () => setTimeout(() => res.writeHead(status).end(), 300));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
t.teardown(() => new Promise<void>((r) => server.close(() => r())));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

const made = await h.api.call('POST', '/v1/webhooks', { key, body: { url, kinds: ['job.failed'] } });
const row = (id: string) => h.api.deps.db('webhook_deliveries').where({ id }).first();

t.test('the same attempt run twice at once is sent once', async (t) => {
  t.equal(made.status, 201);
  hits.length = 0;
  const [id] = await notifier.record(tenantId, 'job.failed', { n: 1 });
  const results = await Promise.all([notifier.attempt(id.id, 1), notifier.attempt(id.id, 1)]);
  t.equal(hits.length, 1, `the receiver got the attempt once (${hits.length})`);
  t.equal(results.filter((r) => r.delivered === true).length, 1, 'one run delivered it');
  const d = await row(id.id);
  t.equal(d.status, 'delivered');
  t.equal(d.attempts, 1);
});

t.test('a failing attempt run twice at once is sent once and retried once', async (t) => {
  status = 500;
  t.teardown(() => {
    status = 204;
  });
  hits.length = 0;
  const [id] = await notifier.record(tenantId, 'job.failed', { n: 2 });
  await Promise.all([notifier.attempt(id.id, 1), notifier.attempt(id.id, 1), notifier.attempt(id.id, 1)]);
  t.equal(hits.length, 1, `the receiver got attempt 1 once (${hits.length})`);
  const d = await row(id.id);
  t.equal(d.status, 'pending');
  t.equal(d.attempts, 1);
  t.equal(d.last_status_code, 500);
  t.ok(d.next_attempt_at && new Date(d.next_attempt_at).getTime() > Date.now() + 50_000, 'the next attempt waits its backoff');
});

t.test('a re-run of an attempt under way sends nothing; an interrupted last attempt ends the delivery unsent', async (t) => {
  hits.length = 0;
  const [id] = await notifier.record(tenantId, 'job.failed', { n: 3 });
  // A worker that died mid-send: its claim is the only trace.
  const started = notifier.attempt(id.id, 1);
  await new Promise((r) => setTimeout(r, 100));
  const again = await notifier.attempt(id.id, 1);
  t.match(again, { skipped: /already/ }, 'a re-run while the first is sending sends nothing');
  await started;
  t.equal(hits.length, 1);
  // The last attempt interrupted for good (requeue-deliveries then queues attempt max + 1): failed, nothing sent.
  const [last] = await notifier.record(tenantId, 'job.failed', { n: 4 });
  await h.api.deps
    .db('webhook_deliveries')
    .where({ id: last.id })
    .update({ attempts: 3, next_attempt_at: new Date(Date.now() - 60_000) });
  hits.length = 0;
  const r = await notifier.attempt(last.id, 4);
  t.equal(hits.length, 0, 'no attempt past WEBHOOK_MAX_ATTEMPTS');
  const d = await row(last.id);
  t.equal(d.status, 'failed');
  t.equal(d.attempts, 3);
  t.match(r, { final: true });
});
