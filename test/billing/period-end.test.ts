import t, { type Test } from 'tap';
import { setup } from '../helpers/harness.js';
import { stageStores, type StageStore } from './stage-store.js';
import { endBillingPeriods } from '../../pipelines/billing/end-billing-periods.stage.js';

// What end-billing-periods does to a store: a cancel ends its add-on bundles (and the limits they
// gave) in the same change; a past_due store is canceled only once its dunning is over. The stage
// is called as its job would; the clock is moved by writing the row's period and dunning start.
const h = await setup({ WEBHOOK_ALLOW_PRIVATE: 'true', BILLING_DEFAULT_PLAN: 'free' });
const { store, closeAll } = stageStores(h);
t.teardown(closeAll);
const db = h.api.deps.db;
const DAY = 86400_000;
const dunningDays = h.api.deps.config.billing.dunningDays;
const run = () => endBillingPeriods.run({ data: {}, deps: h.api.deps } as never);

const withBundle = { plan_code: 'growth', interval: 'month', addons: [{ code: 'assistant_conversations_500', quantity: 1 }] };
const bundleEnds = async (s: StageStore) => (await db('billing_addon_purchases').where({ tenant_id: s.tenant.id })).map((b) => b.period_end?.getTime() ?? null);
/** What the store's own reads show: its plan, the conversations limit its bundles give, their balances. */
const limits = async (s: StageStore) => {
  const usage = (await s.api('GET', '/v1/usage')).body;
  return {
    plan: usage.plan_code,
    conversations: usage.metrics.find((m: { metric: string }) => m.metric === 'assistant_conversation').limit,
    addons: Object.keys((await s.api('GET', '/v1/billing/subscription')).body.addons),
  };
};
const setRow = (s: StageStore, patch: Record<string, unknown>) => db('billing_subscriptions').where({ tenant_id: s.tenant.id }).update(patch);
/** A failed renewal at the mock: past_due since `daysAgo` days, its period over. */
async function pastDue(t: Test, s: StageStore, daysAgo: number) {
  await s.portal('renew-fail');
  await s.settle();
  t.equal((await s.row()).status, 'past_due');
  await setRow(s, { past_due_since: new Date(Date.now() - daysAgo * DAY), current_period_end: new Date(Date.now() - daysAgo * DAY) });
}

t.test('canceled at the period end: its bundles end at the period end with it, and the limits drop to the free plan', async (t) => {
  const s = await store(withBundle);
  t.same(await limits(s), { plan: 'growth', conversations: 500, addons: ['assistant_conversations_500'] });
  t.equal((await s.api('POST', '/v1/billing/cancel', { at_period_end: true })).status, 200);
  await s.settle();
  // The stage runs hours after the period ended (a worker was down, or the schedule is slow).
  const periodEnd = new Date(Math.floor(Date.now() / 1000) * 1000 - 6 * 3600_000);
  await setRow(s, { current_period_end: periodEnd });
  t.ok(
    (await bundleEnds(s)).every((e) => e === null || e > periodEnd.getTime()),
    'the bundle outlives the period (bought for longer)',
  );

  t.same(await run(), { ended: 1, changed: 0 });
  t.match(await s.row(), { status: 'canceled', cancel_at_period_end: false });
  t.equal((await s.row()).canceled_at?.getTime(), periodEnd.getTime(), 'canceled at the period end, not when the stage ran');
  t.same(await bundleEnds(s), [periodEnd.getTime()], 'the bundle ends at the period end');
  t.same(await limits(s), { plan: 'free', conversations: null, addons: [] });
  t.same(await run(), { ended: 0, changed: 0 }, 'a second run changes nothing');
  t.same(await bundleEnds(s), [periodEnd.getTime()]);
  t.equal((await s.row()).canceled_at?.getTime(), periodEnd.getTime(), 'and keeps its canceled_at');
});

t.test('past_due within its dunning days: a period over with a waiting downgrade or a cancel at period end does not cancel it', async (t) => {
  const s = await store(withBundle);
  await pastDue(t, s, dunningDays - 1);
  const bundles = await bundleEnds(s);
  await setRow(s, { pending_plan_code: 'starter', pending_interval: 'month' });
  t.same(await run(), { ended: 0, changed: 0 }, 'a waiting downgrade: nothing yet');
  t.match(await s.row(), { status: 'past_due', plan_code: 'growth', pending_plan_code: 'starter' }, 'the plan and its waiting change stay during dunning');

  await setRow(s, { cancel_at_period_end: true });
  t.same(await run(), { ended: 0, changed: 0 }, 'a cancel at period end: nothing yet');
  t.match(await s.row(), { status: 'past_due', plan_code: 'growth', cancel_at_period_end: true });
  t.same(await bundleEnds(s), bundles, 'the bundles run');
  t.same(await limits(s), { plan: 'growth', conversations: 500, addons: ['assistant_conversations_500'] });
  t.equal((await s.told()).filter((d) => d.status === 'canceled').length, 0, 'the store is not told of a cancel');
});

t.test('past_due past its dunning days: canceled, its bundles and a waiting downgrade end when the dunning did', async (t) => {
  const s = await store(withBundle);
  await pastDue(t, s, dunningDays + 1);
  await setRow(s, { pending_plan_code: 'starter', pending_interval: 'month' });
  const since = (await s.row()).past_due_since.getTime();
  t.same(await run(), { ended: 1, changed: 0 });
  t.match(await s.row(), { status: 'canceled', plan_code: 'growth', pending_plan_code: null, pending_interval: null }, 'the waiting downgrade ends with it');
  t.equal((await s.api('GET', '/v1/billing/subscription')).body.pending_change, null);
  t.equal((await s.row()).canceled_at?.getTime(), since + dunningDays * DAY, 'canceled at the dunning end, a day before the stage ran');
  t.same(await bundleEnds(s), [since + dunningDays * DAY], 'the bundle ends at the dunning end');
  t.same(await limits(s), { plan: 'free', conversations: null, addons: [] });
  t.match((await s.told()).at(-1), { status: 'canceled', previous_status: 'past_due' });
  t.same(await run(), { ended: 0, changed: 0 });
});
