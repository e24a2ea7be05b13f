import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { mockStore } from './mock-store.js';
import { mockSubscriptionEvent } from './mock-event.js';

// A provider event naming a plan the catalog does not have, and a subscription row holding one: never a 500.
const SECRET = 'mock_whsec_unknown_plan_0123';
const { h } = await setupWithWorkers({ MOCK_WEBHOOK_SECRET: SECRET, BILLING_DEFAULT_PLAN: 'free' });

function deliver(tenantId: string, id: string, planCode: string) {
  const event = mockSubscriptionEvent(SECRET, {
    id,
    type: 'subscription.updated',
    created: Math.floor(Date.now() / 1000) + 5,
    tenantId,
    subscription: { id: 'msub_unknown', customer: 'mcus_unknown', plan_code: planCode },
  });
  return h.api.call('POST', '/v1/billing/webhooks/mock', event);
}
const event = (id: string) => h.api.deps.db('billing_events').where({ provider: 'mock', event_id: id }).first();

t.test('an event naming a plan not in the catalog is kept, not applied, and marked plan_unknown', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth' });
  const before = await s.row();
  t.equal((await deliver(s.tenant.id, 'mev_platinum', 'platinum')).status, 200, 'acknowledged: the provider need not retry');
  const stored = await eventually(async () => ((await event('mev_platinum'))?.outcome === 'plan_unknown' ? event('mev_platinum') : null));
  t.equal(stored.applied_at, null, 'left unapplied: reconcile-billing retries it once the catalog has the plan');
  const row = await s.row();
  t.equal(row.plan_code, 'growth');
  t.equal(row.provider_subscription_id, before.provider_subscription_id, 'the subscription is untouched');
});

t.test('a subscription row on a plan not in the catalog: change-plan and add-on purchase answer 409, not 500', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth' });
  await s.db('billing_subscriptions').where({ tenant_id: s.tenant.id }).update({ plan_code: 'platinum' });
  for (const [path, body] of [
    ['/v1/billing/change-plan', { plan_code: 'growth' }],
    ['/v1/billing/addons/purchase', { code: 'assistant_conversations_500' }],
  ] as const) {
    const res = await s.api('POST', path, body);
    t.equal(res.status, 409, path);
    t.equal(res.body.error.code, 'plan_unknown', path);
    t.match(res.body.error.message, /platinum/);
  }
  t.same(await s.invoices(), [{ total: 9900, status: 'paid' }], 'nothing charged');
  t.equal((await s.api('GET', '/v1/billing/subscription')).status, 200);
});
