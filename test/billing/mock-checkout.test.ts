import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { mockStore } from './mock-store.js';

// Checkout on the mock provider through HTTP (API, checkout page, signed webhook, real worker); outcomes read from Postgres.
const { h } = await setupWithWorkers({ BILLING_DEFAULT_PLAN: 'free' });

t.test('two open checkouts: paying the second is refused, the store is charged once', async (t) => {
  const s = await mockStore(h);
  const first = await s.checkout({ plan_code: 'starter' });
  const second = await s.checkout({ plan_code: 'starter' });
  t.not(first, second);
  t.equal((await s.act(first, 'pay')).status, 200);
  const subscribed = await s.row();
  t.equal(subscribed.status, 'active');

  const again = await s.act(second, 'pay');
  t.equal(again.status, 409);
  t.equal(again.body.error.code, 'subscription_exists');
  t.same(await s.invoices(), [{ total: 2900, status: 'paid' }], 'one invoice');
  const [{ n }] = await s.db('billing_mock_objects').where({ kind: 'subscription', tenant_id: s.tenant.id }).count({ n: '*' });
  t.equal(Number(n), 1, 'one provider subscription');
  const row = await s.row();
  t.equal(row.provider_subscription_id, subscribed.provider_subscription_id, 'the subscription row is not overwritten');
  t.equal((await s.act(second, 'fail')).status, 409, 'nor can the other checkout fail it into incomplete');
  t.equal((await s.row()).status, 'active');
});

t.test('two checkouts paid at the same moment: one subscription, one charge', async (t) => {
  const s = await mockStore(h);
  const urls = [await s.checkout({ plan_code: 'growth' }), await s.checkout({ plan_code: 'growth' })];
  const answers = await Promise.all(urls.map((u) => s.act(u, 'pay')));
  t.same(answers.map((a) => a.status).sort(), [200, 409]);
  t.same(await s.invoices(), [{ total: 9900, status: 'paid' }]);
});

t.test('paying one checkout: the service expires the store’s other open checkouts', async (t) => {
  const s = await mockStore(h);
  const first = await s.checkout({ plan_code: 'starter' });
  const second = await s.checkout({ plan_code: 'growth' });
  await s.act(second, 'pay');
  // The service expires it through the payments port (close-checkout, in the worker), as it would at Stripe or Paddle.
  const other = await eventually(async () => {
    const row = await s
      .db('billing_mock_objects')
      .where({ id: first.split('/').pop() })
      .first();
    return row.data.status === 'expired' ? row : null;
  });
  t.equal(other.data.status, 'expired');
  t.equal((await s.act(first, 'pay')).status, 409);
  t.same(await s.invoices(), [{ total: 9900, status: 'paid' }]);
  t.equal((await s.row()).plan_code, 'growth');
});

t.test('a canceled store may check out again', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'starter' });
  t.equal((await s.api('POST', '/v1/billing/cancel', { at_period_end: false })).status, 200);
  await s.settled();
  t.equal((await s.subscribe({ plan_code: 'growth' })).status, 200);
  t.match(await s.row(), { status: 'active', plan_code: 'growth' });
  t.same(await s.invoices(), [
    { total: 2900, status: 'paid' },
    { total: 9900, status: 'paid' },
  ]);
});

t.test('add-on bundles bought at checkout are charged with it', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth', addons: [{ code: 'assistant_conversations_500', quantity: 2 }] });
  t.same(await s.invoices(), [{ total: 9900 + 2 * 1900, status: 'paid' }]);
  const sub = (await s.api('GET', '/v1/billing/subscription')).body;
  t.equal(sub.addons.assistant_conversations_500.units, 1000);
});

t.test('a trial checkout charges its add-on bundles now and the plan at the trial end', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth', addons: [{ code: 'assistant_conversations_500', quantity: 1 }] }, 'trial');
  const row = await s.row();
  t.equal(row.status, 'trialing');
  t.same(await s.invoices(), [{ total: 1900, status: 'paid' }], 'the bundle now, nothing for the plan yet');
  const sub = (await s.api('GET', '/v1/billing/subscription')).body;
  const firstPaidPeriodEnd = new Date(row.current_period_end);
  firstPaidPeriodEnd.setUTCMonth(firstPaidPeriodEnd.getUTCMonth() + 1);
  t.equal(sub.addons.assistant_conversations_500.period_end, firstPaidPeriodEnd.toISOString(), 'the bundle lasts to the end of the first paid period');
  await s.portal('renew');
  t.same(await s.invoices(), [
    { total: 1900, status: 'paid' },
    { total: 9900, status: 'paid' },
  ]);
});
