import t from 'tap';
import { setup } from '../helpers/harness.js';
import { failOnce } from '../helpers/pg-fault.js';
import { stageStores, type StageStore } from '../billing/stage-store.js';
import { endBillingPeriods } from '../../pipelines/billing/end-billing-periods.stage.js';
import { reconcileBilling } from '../../pipelines/billing/reconcile-billing.stage.js';

// A Postgres error between two writes of end-billing-periods or reconcile-billing for one store (a
// trigger that raises once): the run fails and leaves the store as it was, so the job's retry
// makes the whole change and tells the store once. The stages are run by calling them, as their jobs would.
const h = await setup({ WEBHOOK_ALLOW_PRIVATE: 'true', BILLING_DEFAULT_PLAN: 'free' });
const { store, closeAll } = stageStores(h);
t.teardown(closeAll);
const db = h.api.deps.db;
const run = <T>(stage: { run(ctx: never): Promise<unknown> }, data: Record<string, unknown> = {}) =>
  stage.run({ data, deps: h.api.deps } as never) as Promise<T>;

const bundles = (s: StageStore) => db('billing_addon_purchases').where({ tenant_id: s.tenant.id }).select('code', 'period_end');

t.test('end-billing-periods failing at the notification leaves the subscription due; the retry ends it and tells the store once', async (t) => {
  const s = await store({ plan_code: 'growth', interval: 'month' });
  t.equal((await s.api('POST', '/v1/billing/cancel', { at_period_end: true })).status, 200);
  await s.settle();
  await db('billing_subscriptions')
    .where({ tenant_id: s.tenant.id })
    .update({ current_period_end: new Date(Date.now() - 60_000) });
  const told = await s.told();
  const heard = await s.noticed();

  const fault = await failOnce(db, { name: 'fault_period_told', table: 'webhook_deliveries', on: 'INSERT', when: `NEW.tenant_id = '${s.tenant.id}'` });
  t.teardown(() => fault.remove());
  await t.rejects(run(endBillingPeriods), /injected fault/, 'the run fails at recording the notification');
  t.equal(await fault.tried(), 1, 'the fault was hit');
  t.match(await s.row(), { status: 'active', cancel_at_period_end: true }, 'the subscription is not ended without the store being told');
  t.same(await s.told(), told);
  t.equal(await s.noticed(), heard, 'no notice about a change that rolled back');

  t.same(await run(endBillingPeriods), { ended: 1, changed: 0 }, 'the retry ends it');
  t.match(await s.row(), { status: 'canceled', cancel_at_period_end: false });
  t.match((await s.told()).slice(told.length), [{ status: 'canceled', previous_status: 'active' }], 'told once');
  t.equal(await s.noticed(), heard + 1);
  t.same(await run(endBillingPeriods), { ended: 0, changed: 0 }, 'a third run changes nothing');
  t.equal((await s.told()).length, told.length + 1);
});

t.test(
  'reconcile-billing finds a cancel whose webhook was lost: a run failing part-way leaves nothing; the rerun ends the bundles and tells the store',
  async (t) => {
    const s = await store({ plan_code: 'growth', interval: 'month', addons: [{ code: 'assistant_conversations_500', quantity: 1 }] });
    // Canceled at the provider; its event never reaches the service.
    await s.portal('cancel-now');
    await db('billing_events').where({ tenant_id: s.tenant.id }).whereNull('applied_at').delete();
    const told = await s.told();
    const heard = await s.noticed();
    const running = await bundles(s);
    t.ok(
      running.every((b) => b.period_end > new Date()),
      'the bundles run',
    );

    const fault = await failOnce(db, {
      name: 'fault_reconcile_addons',
      table: 'billing_addon_purchases',
      on: 'UPDATE',
      when: `NEW.tenant_id = '${s.tenant.id}'`,
    });
    t.teardown(() => fault.remove());
    await t.rejects(run(reconcileBilling, { unappliedAfterMs: 60_000 }), /injected fault/, 'the run fails at ending the bundles');
    t.equal(await fault.tried(), 1, 'the fault was hit');
    t.match(await s.row(), { status: 'active' }, 'not left canceled with its bundles running');
    t.same(await bundles(s), running);
    t.same(await s.told(), told);
    t.equal(await s.noticed(), heard, 'no notice about a change that rolled back');

    t.match(await run(reconcileBilling, { unappliedAfterMs: 60_000 }), { corrected: 1 }, 'the rerun corrects it');
    t.match(await s.row(), { status: 'canceled', provider_status: 'canceled' });
    t.ok(
      (await bundles(s)).every((b) => b.period_end <= new Date()),
      'the bundles end with it',
    );
    t.match((await s.told()).slice(told.length), [{ status: 'canceled', previous_status: 'active' }], 'told once');
    t.equal(await s.noticed(), heard + 1);
    t.match(await run(reconcileBilling, { unappliedAfterMs: 60_000 }), { corrected: 0 }, 'a third run changes nothing');
    t.equal((await s.told()).length, told.length + 1);
  },
);
