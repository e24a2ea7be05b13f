import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { startReceiver } from './receiver.js';

// Billing's hook is wired to the notifier in createDeps: its facts reach receivers subscribed to them.
const { h } = await setupWithWorkers({ WEBHOOK_ALLOW_PRIVATE: 'true' });
const { id: tenantId, key } = await h.tenant();
const other = await h.tenant('Other');
const rx = await startReceiver();
t.teardown(() => rx.close());

const made = await h.api.call('POST', '/v1/webhooks', { key, body: { url: `${rx.url}/billing`, kinds: ['usage.threshold_reached', 'subscription.changed'] } });
rx.state.secret = made.body.secret;

t.test('usage thresholds and subscription changes from billing arrive signed, for their store only', async (t) => {
  t.equal(made.status, 201);
  const billing = h.api.deps.billingNotifications;
  await billing.emit({ kind: 'usage.threshold', tenantId, metric: 'searches', notice: '80_percent', period: '2026-11', used: 8_000, limit: 10_000 });
  await billing.emit({
    kind: 'subscription.changed',
    tenantId,
    plan_code: 'growth',
    status: 'active',
    previous_status: 'trialing',
    cancel_at_period_end: false,
  });
  await billing.emit({
    kind: 'subscription.changed',
    tenantId: other.id,
    plan_code: 'free',
    status: 'canceled',
    previous_status: 'active',
    cancel_at_period_end: false,
  });
  await eventually(async () => rx.received.length >= 2, 15_000);
  await new Promise((r) => setTimeout(r, 300));
  const bodies = rx.received.map((r) => JSON.parse(r.body));
  t.equal(bodies.length, 2, "the other store's change is not sent to this store's receiver");
  t.match(
    bodies.find((b) => b.type === 'usage.threshold_reached'),
    { data: { metric: 'searches', notice: '80_percent', used: 8_000, limit: 10_000 } },
  );
  t.match(
    bodies.find((b) => b.type === 'subscription.changed'),
    { data: { plan_code: 'growth', status: 'active', previous_status: 'trialing' } },
  );
  t.ok(
    rx.received.every((r) => r.verified),
    'signed',
  );
  t.notOk(
    bodies.some((b) => 'tenantId' in b.data),
    'the tenant id stays out of the payload',
  );
});
