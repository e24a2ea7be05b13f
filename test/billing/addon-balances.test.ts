import t from 'tap';
import type { Test } from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { endBillingPeriods } from '../../pipelines/billing/end-billing-periods.stage.js';
import { mockStore } from './mock-store.js';

// Add-on balances are what was bought for the live subscription (spec 2.5 AddonBalance: "bought this period").
const { h, workers } = await setupWithWorkers({ BILLING_DEFAULT_PLAN: 'free' });
const conversationsLimit = (usage: { metrics: Array<{ metric: string; limit: number | null }> }) =>
  usage.metrics.find((m) => m.metric === 'assistant_conversation')!.limit;

async function storeWithBundles(t: Test) {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth', addons: [{ code: 'assistant_conversations_5000', quantity: 2 }] });
  const bought = await s.api('POST', '/v1/billing/addons/purchase', { code: 'assistant_conversations_500' }, { 'idempotency-key': `buy-${s.tenant.id}` });
  t.equal(bought.status, 200);
  t.equal(conversationsLimit((await s.api('GET', '/v1/usage')).body), 10500);
  return s;
}

t.test('canceled now, then a starter checkout: no balances from before', async (t) => {
  const s = await storeWithBundles(t);
  t.equal((await s.api('POST', '/v1/billing/cancel', { at_period_end: false })).status, 200);
  await s.settled();
  t.same((await s.api('GET', '/v1/billing/subscription')).body.addons, {}, 'none while canceled');
  await s.subscribe({ plan_code: 'starter' });
  t.equal((await s.row()).plan_code, 'starter');
  t.same((await s.api('GET', '/v1/billing/subscription')).body.addons, {});
  t.equal(conversationsLimit((await s.api('GET', '/v1/usage')).body), null);
});

t.test('canceled now, then growth again: the old bundles stay ended', async (t) => {
  const s = await storeWithBundles(t);
  t.equal((await s.api('POST', '/v1/billing/cancel', { at_period_end: false })).status, 200);
  await s.settled();
  await s.subscribe({ plan_code: 'growth' });
  t.same((await s.api('GET', '/v1/billing/subscription')).body.addons, {});
  t.equal(conversationsLimit((await s.api('GET', '/v1/usage')).body), null);
  const [{ open }] = await s.db('billing_addon_purchases').where({ tenant_id: s.tenant.id }).where('period_end', '>', new Date()).count({ open: '*' });
  t.equal(Number(open), 0, 'their rows end at the cancellation');
});

t.test('canceled through the provider portal: the bundles end too', async (t) => {
  const s = await storeWithBundles(t);
  await s.portal('cancel-now');
  t.equal((await s.row()).status, 'canceled');
  await s.subscribe({ plan_code: 'growth' });
  t.same((await s.api('GET', '/v1/billing/subscription')).body.addons, {});
});

t.test('paused: no balance while paused, back when resumed', async (t) => {
  const s = await storeWithBundles(t);
  await s.portal('pause');
  t.equal(conversationsLimit((await s.api('GET', '/v1/usage')).body), null);
  await s.portal('resume');
  t.equal(conversationsLimit((await s.api('GET', '/v1/usage')).body), 10500);
});

t.test('a bundle bought in a trial, the trial ended by end-billing-periods: a new subscription starts with none', async (t) => {
  const s = await mockStore(h);
  await s.subscribe({ plan_code: 'growth', addons: [{ code: 'assistant_conversations_500', quantity: 1 }] }, 'trial');
  t.equal((await s.api('POST', '/v1/billing/cancel', { at_period_end: true })).status, 200);
  await s.settled();
  // The trial is over; the stage ends it on our side (the mock provider runs no clock of its own).
  await s
    .db('billing_subscriptions')
    .where({ tenant_id: s.tenant.id })
    .update({ current_period_end: new Date(Date.now() - 1000) });
  await workers.deps.queues.enqueue(endBillingPeriods, { run: `trial-end-${s.tenant.id}` });
  await eventually(async () => (await s.row()).status === 'canceled');
  // The stage stamps state_at to the millisecond, provider events to the second: a checkout
  // completed in the same second would be taken as older (no person is that quick).
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 10));

  const again = await s.subscribe({ plan_code: 'growth' });
  t.equal(again.status, 200, 'the store may subscribe again');
  t.match(await s.row(), { status: 'active', plan_code: 'growth' });
  t.same((await s.api('GET', '/v1/billing/subscription')).body.addons, {});
  t.same(await s.invoices(), [
    { total: 1900, status: 'paid' },
    { total: 9900, status: 'paid' },
  ]);
});
