import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { mockStore } from './mock-store.js';

// Plan changes and renewals on the mock provider through HTTP; money and state read from Postgres.
const { h } = await setupWithWorkers({ BILLING_DEFAULT_PLAN: 'free' });

t.test('growth/year -> scale/month: the unused year is kept as credit and drawn by the next invoices', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth', interval: 'year' });
  t.same(await s.invoices(), [{ total: 99000, status: 'paid' }]);

  const changed = await s.api('POST', '/v1/billing/change-plan', { plan_code: 'scale' });
  t.equal(changed.status, 200);
  t.match(changed.body, { plan_code: 'scale', interval: 'month', credit_minor: 99000 - 29900 });
  await s.settled();
  t.same(await s.invoices(), [{ total: 99000, status: 'paid' }], 'nothing charged now');
  t.equal(Number((await s.row()).credit_minor), 69100);

  await s.portal('renew');
  await s.portal('renew');
  t.equal(Number((await s.row()).credit_minor), 9300, 'two months drawn from the credit');
  await s.portal('renew');
  t.same(await s.invoices(), [
    { total: 99000, status: 'paid' },
    { total: 0, status: 'paid' },
    { total: 0, status: 'paid' },
    { total: 29900 - 9300, status: 'paid' },
  ]);
  t.equal(Number((await s.row()).credit_minor), 0);
  t.equal((await s.api('GET', '/v1/billing/subscription')).body.credit_minor, 0);
});

t.test('a change during a trial charges nothing for the plan; the trial end charges the new plan', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'starter', interval: 'year' }, 'trial');
  const trial = await s.row();
  t.equal(trial.status, 'trialing');

  const up = await s.api('POST', '/v1/billing/change-plan', {
    plan_code: 'growth',
    interval: 'year',
    addons: [{ code: 'assistant_conversations_500', quantity: 1 }],
  });
  t.equal(up.status, 200);
  t.match(up.body, { plan_code: 'growth', status: 'trialing', trial_ends_at: trial.trial_ends_at.toISOString() });
  await s.settled();
  t.same(await s.invoices(), [{ total: 1900, status: 'paid' }], 'only the bundle is charged during the trial');
  const row = await s.row();
  t.equal(row.current_period_end.toISOString(), trial.current_period_end.toISOString(), 'the trial keeps its end');

  await s.portal('renew');
  t.same(await s.invoices(), [
    { total: 1900, status: 'paid' },
    { total: 99000, status: 'paid' },
  ]);
  t.match(await s.row(), { status: 'active', plan_code: 'growth', interval: 'year' });
});

t.test('a scheduled downgrade is shown, and changing back to the current plan undoes it', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth' });
  const periodEnd = (await s.row()).current_period_end.toISOString();

  const down = await s.api('POST', '/v1/billing/change-plan', { plan_code: 'starter' });
  t.equal(down.status, 200);
  t.match(down.body, { plan_code: 'growth', pending_change: { plan_code: 'starter', interval: 'month', effective_at: periodEnd } });
  t.equal((await s.row()).pending_plan_code, 'starter');

  const back = await s.api('POST', '/v1/billing/change-plan', { plan_code: 'growth' });
  t.equal(back.status, 200);
  t.equal(back.body.pending_change, null);
  await s.settled();
  t.match(await s.row(), { plan_code: 'growth', pending_plan_code: null, pending_interval: null });

  await s.portal('renew');
  t.same(await s.invoices(), [
    { total: 9900, status: 'paid' },
    { total: 9900, status: 'paid' },
  ]);
  t.equal((await s.row()).plan_code, 'growth', 'still growth after the period end');
});

t.test('the renewal applies a scheduled downgrade: billed and switched at once', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth' });
  const before = await s.row();
  t.equal((await s.api('POST', '/v1/billing/change-plan', { plan_code: 'starter' })).status, 200);
  await s.settled();
  await s.portal('renew');
  t.same(await s.invoices(), [
    { total: 9900, status: 'paid' },
    { total: 2900, status: 'paid' },
  ]);
  const row = await s.row();
  t.match(row, { plan_code: 'starter', interval: 'month', pending_plan_code: null, status: 'active' });
  t.equal(row.current_period_start.toISOString(), before.current_period_end.toISOString(), 'the new period starts where the old one ended');
});

t.test('yearly -> monthly of the same plan: the renewal bills a month and clears the pending change', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth', interval: 'year' });
  const down = await s.api('POST', '/v1/billing/change-plan', { plan_code: 'growth', interval: 'month' });
  t.match(down.body, { interval: 'year', pending_change: { plan_code: 'growth', interval: 'month' } });
  await s.settled();
  await s.portal('renew');
  t.same(await s.invoices(), [
    { total: 99000, status: 'paid' },
    { total: 9900, status: 'paid' },
  ]);
  t.match(await s.row(), { plan_code: 'growth', interval: 'month', pending_plan_code: null, pending_interval: null });
  t.equal((await s.api('GET', '/v1/billing/subscription')).body.pending_change, null);
});

t.test('a subscription set to cancel at the period end is ended by its renewal, with no invoice', async (t) => {
  for (const action of ['renew', 'renew-fail']) {
    const s = await mockStore(h);
    await s.subscribe({ plan_code: 'starter', interval: 'year' });
    t.equal((await s.api('POST', '/v1/billing/cancel', { at_period_end: true })).status, 200);
    await s.settled();
    await s.portal(action);
    t.same(await s.invoices(), [{ total: 29000, status: 'paid' }], `${action}: no renewal invoice`);
    t.match(await s.row(), { status: 'canceled' }, `${action}: canceled`);
  }
});

t.test('a cancel ends a scheduled downgrade with the subscription: not shown, and not applied to the next subscription', async (t) => {
  for (const how of ['cancel-now at the provider', 'POST /v1/billing/cancel']) {
    const s = await mockStore(h);
    await s.subscribe({ plan_code: 'growth' });
    t.equal((await s.api('POST', '/v1/billing/change-plan', { plan_code: 'starter' })).status, 200);
    await s.settled();
    t.equal((await s.row()).pending_plan_code, 'starter', `${how}: the downgrade waits`);

    if (how === 'POST /v1/billing/cancel') t.equal((await s.api('POST', '/v1/billing/cancel', { at_period_end: false })).status, 200);
    else await s.portal('cancel-now');
    await s.settled();
    t.match(await s.row(), { status: 'canceled', pending_plan_code: null, pending_interval: null }, `${how}: the waiting downgrade ends with it`);
    t.match((await s.api('GET', '/v1/billing/subscription')).body, { status: 'canceled', pending_change: null }, `${how}: none shown`);

    // The same plan again: a new subscription, no downgrade waiting from the old one.
    await s.subscribe({ plan_code: 'growth' });
    t.match(await s.row(), { status: 'active', plan_code: 'growth', pending_plan_code: null }, `${how}: the new subscription has no waiting change`);
    t.equal((await s.api('GET', '/v1/billing/subscription')).body.pending_change, null);
  }
});
