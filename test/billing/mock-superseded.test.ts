import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { signStripeStyle } from '../../shared/engines/payments/index.js';
import { mockStore } from './mock-store.js';

// The whole flow on the mock provider (API, checkout page, signed webhooks, real worker): a completed
// checkout closes the store's others at the provider through the payments port.
const { h } = await setupWithWorkers({ BILLING_DEFAULT_PLAN: 'free' });
const db = h.api.deps.db;
const idOf = (url: string) => url.split('/').pop()!;
const mockCheckout = async (url: string) =>
  (
    await db('billing_mock_objects')
      .where({ id: idOf(url) })
      .first()
  ).data;
const ours = (url: string) =>
  db('billing_checkouts')
    .where({ provider: 'mock', provider_checkout_id: idOf(url) })
    .first();
const closed = (url: string) => eventually(async () => ((await ours(url))?.closed_at ? ours(url) : null), 20_000);

t.test('paying one checkout: the service expires the store’s other open checkouts at the provider', async (t) => {
  const s = await mockStore(h);
  const other = await mockStore(h);
  const [first, second] = [await s.checkout({ plan_code: 'starter' }), await s.checkout({ plan_code: 'growth' })];
  const foreign = await other.checkout({ plan_code: 'starter' });
  t.equal((await ours(second)).status, 'open');
  t.equal((await s.act(first, 'pay')).status, 200);
  t.match(await closed(second), { status: 'superseded', superseded_by: idOf(first) });
  t.equal((await mockCheckout(second)).status, 'expired', 'expired at the provider');
  t.match(await ours(first), { status: 'completed', provider_subscription_id: (await s.row()).provider_subscription_id });
  t.equal((await mockCheckout(foreign)).status, 'open', 'another store’s checkout stays open');
  t.equal((await s.act(second, 'pay')).status, 409, 'the expired checkout cannot be paid');
  t.same(await s.invoices(), [{ total: 2900, status: 'paid' }]);
});

t.test('a failed payment supersedes nothing', async (t) => {
  const s = await mockStore(h);
  const [first, second] = [await s.checkout({ plan_code: 'starter' }), await s.checkout({ plan_code: 'growth' })];
  await s.act(first, 'fail');
  t.equal((await ours(second)).status, 'open');
  t.equal((await mockCheckout(second)).status, 'open');
});

t.test('a superseded checkout paid anyway is accepted as the latest decision, and recorded', async (t) => {
  const s = await mockStore(h);
  const [first, stale] = [await s.checkout({ plan_code: 'starter' }), await s.checkout({ plan_code: 'growth' })];
  await s.act(first, 'pay');
  await closed(stale);
  const firstSub = (await s.row()).provider_subscription_id;

  // The provider reports the stale checkout paid (as Stripe or Paddle can when the shopper pays before the expire lands).
  const now = Math.floor(Date.now() / 1000);
  const late = { id: 'msub_late', customer: 'mcus_late', plan_code: 'growth', interval: 'month', status: 'active' };
  const body = JSON.stringify({
    id: 'mev_late_payment',
    type: 'checkout.session.completed',
    created: now,
    data: {
      tenant_id: s.tenant.id,
      checkout: idOf(stale),
      addons: [],
      subscription: { ...late, current_period_start: now, current_period_end: now + 30 * 86400, trial_end: null, cancel_at_period_end: false },
    },
  });
  const res = await h.api.call('POST', '/v1/billing/webhooks/mock', {
    rawBody: body,
    headers: { 'content-type': 'application/json', 'mock-signature': signStripeStyle(body, h.config.billing.mockWebhookSecret) },
  });
  t.equal(res.status, 200);
  await s.settled();
  t.equal((await db('billing_events').where({ provider: 'mock', event_id: 'mev_late_payment' }).first()).outcome, 'late_checkout_accepted');
  t.match(await s.row(), { plan_code: 'growth', status: 'active', provider_subscription_id: 'msub_late' }, 'the store follows the later payment');
  t.match(await ours(first), { status: 'replaced', superseded_by: idOf(stale) });
  t.match(await closed(first), { status: 'replaced' });
  const canceled = await db('billing_mock_objects').where({ id: firstSub }).first();
  t.equal(canceled.data.status, 'canceled', 'the replaced subscription is canceled at the provider');
  await s.settled();
  const deleted = await db('billing_events').where({ provider: 'mock', tenant_id: s.tenant.id, type: 'subscription.deleted' }).first();
  t.equal(deleted.outcome, 'replaced_subscription', 'its cancel event does not move the store');
  t.match(await s.row(), { plan_code: 'growth', status: 'active', provider_subscription_id: 'msub_late' });
});
