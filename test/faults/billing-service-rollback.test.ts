import t from 'tap';
import { setup } from '../helpers/harness.js';
import { failOnce } from '../helpers/pg-fault.js';
import { stageStores, type StageStore } from '../billing/stage-store.js';

// A Postgres error between two writes of a billing API change (a trigger that raises once), after
// the mock provider has made the change on its side: nothing of the attempt may stay (500, no
// notification), and the client's retry, or the provider's webhook alone, must end as a clean run
// of the same request does on another store. The provider's events are applied by calling the stage.
const h = await setup({ WEBHOOK_ALLOW_PRIVATE: 'true', BILLING_DEFAULT_PLAN: 'free' });
const { store, closeAll } = stageStores(h);
t.teardown(closeAll);
const db = h.api.deps.db;

/** What Postgres holds of a store's billing, without ids and times that differ between two stores' runs. */
async function ours(s: StageStore) {
  const sub = await s.row();
  const addons = await db('billing_addon_purchases').where({ tenant_id: s.tenant.id }).orderBy('created_at');
  return {
    subscription: {
      plan_code: sub.plan_code,
      interval: sub.interval,
      status: sub.status,
      cancel_at_period_end: sub.cancel_at_period_end,
      pending_plan_code: sub.pending_plan_code,
      credit_minor: sub.credit_minor,
      canceled: sub.canceled_at !== null,
    },
    addons: addons.map((a) => ({ code: a.code, bundles: a.bundles, units: a.units, amount_minor: a.amount_minor, running: a.period_end > new Date() })),
    told: await s.told(),
  };
}

const GROWTH = { plan_code: 'growth', interval: 'month' };

t.test('a plan change failing at recording its add-on bundles leaves nothing; the client retry ends as a clean run', async (t) => {
  const change = { plan_code: 'scale', interval: 'month', addons: [{ code: 'assistant_conversations_500', quantity: 1 }] };
  const clean = await store(GROWTH);
  t.equal((await clean.api('POST', '/v1/billing/change-plan', change)).status, 200, 'clean run');
  await clean.settle();

  const faulty = await store(GROWTH);
  const fault = await failOnce(db, {
    name: 'fault_change_addons',
    table: 'billing_addon_purchases',
    on: 'INSERT',
    when: `NEW.tenant_id = '${faulty.tenant.id}'`,
  });
  t.teardown(() => fault.remove());
  const before = await ours(faulty);
  const heard = await faulty.noticed();
  const failed = await faulty.api('POST', '/v1/billing/change-plan', change);
  t.match(failed, { status: 500, body: { error: { code: 'internal_error' } } }, 'the attempt fails after the provider made the change');
  t.equal(await fault.tried(), 1, 'the fault was hit');
  t.same(await ours(faulty), before, 'nothing of it stays: the plan, the bundles, the notification');
  t.equal(await faulty.noticed(), heard, 'no notice about a change that rolled back');

  t.equal((await faulty.api('POST', '/v1/billing/change-plan', change)).status, 200, 'the client retries');
  await faulty.settle();
  t.same(await ours(faulty), await ours(clean), 'the same state as the clean run');
  t.match((await faulty.told()).at(-1), { plan_code: 'scale', status: 'active', previous_status: 'active' }, 'told of the change once');
  t.same(await faulty.invoices(), await clean.invoices(), 'charged once, as the clean run');
  t.equal(await faulty.noticed(), await clean.noticed(), 'as many notices as the clean run');
});

t.test('a downgrade with bundles failing at recording them: the retry with the same key charges the bundles once', async (t) => {
  const change = { plan_code: 'growth', interval: 'month', addons: [{ code: 'assistant_conversations_500', quantity: 1 }] };
  const headers = { 'idempotency-key': 'rollback-downgrade-0001' };
  const clean = await store({ plan_code: 'scale', interval: 'month' });
  t.equal((await clean.api('POST', '/v1/billing/change-plan', change, headers)).status, 200, 'clean run');
  await clean.settle();

  const faulty = await store({ plan_code: 'scale', interval: 'month' });
  const fault = await failOnce(db, {
    name: 'fault_downgrade_addons',
    table: 'billing_addon_purchases',
    on: 'INSERT',
    when: `NEW.tenant_id = '${faulty.tenant.id}'`,
  });
  t.teardown(() => fault.remove());
  t.equal((await faulty.api('POST', '/v1/billing/change-plan', change, headers)).status, 500, 'the attempt fails after the provider charged');
  t.equal((await faulty.api('POST', '/v1/billing/change-plan', change, headers)).status, 200, 'the client retries with the same key');
  await faulty.settle();
  t.same(await ours(faulty), await ours(clean), 'the same state as the clean run');
  t.same(await faulty.invoices(), await clean.invoices(), 'the bundle charged once, as the clean run');
});

t.test('a cancel failing at ending the add-on bundles leaves the subscription live; the client retry cancels it once', async (t) => {
  const subscription = { ...GROWTH, addons: [{ code: 'assistant_conversations_500', quantity: 1 }] };
  const clean = await store(subscription);
  t.equal((await clean.api('POST', '/v1/billing/cancel', { at_period_end: false })).status, 200, 'clean run');
  await clean.settle();

  const faulty = await store(subscription);
  const fault = await failOnce(db, {
    name: 'fault_cancel_addons',
    table: 'billing_addon_purchases',
    on: 'UPDATE',
    when: `NEW.tenant_id = '${faulty.tenant.id}'`,
  });
  t.teardown(() => fault.remove());
  const before = await ours(faulty);
  t.match(before, { subscription: { status: 'active' }, addons: [{ running: true }] });
  const heard = await faulty.noticed();
  t.match(await faulty.api('POST', '/v1/billing/cancel', { at_period_end: false }), { status: 500 }, 'the attempt fails after canceling the row');
  t.equal(await fault.tried(), 1, 'the fault was hit');
  t.same(await ours(faulty), before, 'not left canceled with its bundles running, nor told');
  t.equal(await faulty.noticed(), heard, 'no notice about a change that rolled back');

  t.match(await faulty.api('POST', '/v1/billing/cancel', { at_period_end: false }), { status: 200, body: { status: 'canceled' } }, 'the client retries');
  await faulty.settle();
  const after = await ours(faulty);
  t.same(after, await ours(clean), 'the same state as the clean run');
  t.match(after, { subscription: { status: 'canceled' }, addons: [{ running: false }] });
  t.match(after.told.at(-1), { status: 'canceled', previous_status: 'active' }, 'told of the cancel');
  t.equal(await faulty.noticed(), await clean.noticed(), 'as many notices as the clean run');
});

t.test('a plan change failing at its notification is recovered by the provider webhook alone', async (t) => {
  const clean = await store(GROWTH);
  t.equal((await clean.api('POST', '/v1/billing/change-plan', { plan_code: 'scale' })).status, 200, 'clean run');
  await clean.settle();

  const faulty = await store(GROWTH);
  const fault = await failOnce(db, { name: 'fault_change_told', table: 'webhook_deliveries', on: 'INSERT', when: `NEW.tenant_id = '${faulty.tenant.id}'` });
  t.teardown(() => fault.remove());
  const before = await ours(faulty);
  t.match(await faulty.api('POST', '/v1/billing/change-plan', { plan_code: 'scale' }), { status: 500 }, 'the attempt fails at recording the notification');
  t.equal(await fault.tried(), 1, 'the fault was hit');
  t.same(await ours(faulty), before, 'the plan is not left changed without the store being told');

  t.equal((await faulty.unapplied()).length, 1, 'the provider sent the change');
  await faulty.settle();
  t.same(await ours(faulty), await ours(clean), 'its event alone ends as the clean run');
  t.match((await faulty.told()).at(-1), { plan_code: 'scale', previous_status: 'active' });
  t.same(await faulty.invoices(), await clean.invoices());
});
