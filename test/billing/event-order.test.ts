import t from 'tap';
import { createHmac } from 'node:crypto';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { mockSubscriptionEvent } from './mock-event.js';

const SECRET = 'mock_whsec_order_test_0123';
const { h } = await setupWithWorkers({ MOCK_WEBHOOK_SECRET: SECRET });
const tenant = await h.tenant();
const now = Math.floor(Date.now() / 1000);

function deliver(id: string, type: string, created: number, sub: Record<string, unknown>) {
  const event = mockSubscriptionEvent(SECRET, { id, type, created, tenantId: tenant.id, subscription: { id: 'msub_order', customer: 'mcus_order', ...sub } });
  return h.api.call('POST', '/v1/billing/webhooks/mock', event);
}
const subscription = () => h.api.call('GET', '/v1/billing/subscription', { key: tenant.key });
const outcome = async (id: string) => (await h.api.deps.db('billing_events').where({ provider: 'mock', event_id: id }).first())?.outcome;

t.test('updated before created: the older created event does not move the state back', async (t) => {
  t.equal((await deliver('mev_upd', 'subscription.updated', now + 10, { status: 'active', cancel_at_period_end: true })).status, 200);
  await eventually(async () => (await outcome('mev_upd')) === 'applied');
  t.equal((await deliver('mev_new', 'subscription.created', now, { status: 'incomplete' })).status, 200);
  await eventually(async () => (await outcome('mev_new')) === 'stale');
  const sub = await subscription();
  t.equal(sub.body.status, 'active');
  t.equal(sub.body.cancel_at_period_end, true);
  t.equal(sub.body.plan_code, 'growth');
  t.equal(sub.body.provider, 'mock');
});

t.test('the same event three times: stored and applied once', async (t) => {
  const answers = [];
  for (let i = 0; i < 3; i++)
    answers.push(await deliver('mev_past_due', 'invoice.payment_failed', now + 20, { status: 'past_due', cancel_at_period_end: true }));
  t.same(
    answers.map((a) => a.body.duplicate),
    [false, true, true],
  );
  await eventually(async () => (await outcome('mev_past_due')) === 'applied');
  t.equal((await subscription()).body.status, 'past_due');
  const rows = await h.api.deps.db('billing_events').where({ provider: 'mock', event_id: 'mev_past_due' });
  t.equal(rows.length, 1);
  t.ok(rows[0].applied_at);
  const row = await h.api.deps.db('billing_subscriptions').where({ tenant_id: tenant.id }).first();
  t.equal(row.provider_status, 'past_due', 'the raw status is kept beside ours');
});

t.test('an unknown event type is stored and acknowledged without effect', async (t) => {
  const ts = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id: 'mev_unknown', type: 'coupon.created', created: now + 30, data: { tenant_id: tenant.id } });
  const sig = createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex');
  const res = await h.api.call('POST', '/v1/billing/webhooks/mock', {
    rawBody: body,
    headers: { 'content-type': 'application/json', 'mock-signature': `t=${ts},v1=${sig}` },
  });
  t.equal(res.status, 200);
  await eventually(async () => (await outcome('mev_unknown')) === 'ignored');
  t.equal((await subscription()).body.status, 'past_due');
});
