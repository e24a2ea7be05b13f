import t from 'tap';
import { setup } from '../helpers/harness.js';
import { failOnce } from '../helpers/pg-fault.js';
import { eventStore, type EventStore } from '../billing/event-store.js';
import { BILLING_QUEUE, closeCheckoutJob } from '../../shared/billing/index.js';
import { deliverJob } from '../../shared/notifications/index.js';

// A Postgres error between two writes of one provider event's application (a trigger that raises
// once, as a crash or a lost connection would leave it): the attempt must leave nothing behind, so
// the job's retry ends exactly as a clean run does. Two stores get the same events; one of them the fault.
const SECRET = 'mock_whsec_apply_rollback_01';
const h = await setup({ MOCK_WEBHOOK_SECRET: SECRET, WEBHOOK_ALLOW_PRIVATE: 'true' });
t.teardown(() => h.close());
const db = h.api.deps.db;
const T0 = Math.floor(Date.now() / 1000);
const PERIOD = { current_period_start: T0, current_period_end: T0 + 30 * 86400 };

/** Columns that say when a row was written: they differ between two stores' runs, so only whether they are set is compared. */
const WRITTEN_AT = ['created_at', 'updated_at', 'completed_at', 'closed_at', 'applied_at', 'received_at'];

/** Everything Postgres holds of a store's billing, with its own ids made neutral so two stores compare. */
async function state(s: EventStore) {
  const mine = { tenant_id: s.tenant.id };
  const rows = {
    subscription: await db('billing_subscriptions').where(mine).first(),
    checkouts: await db('billing_checkouts').where(mine).orderBy('id'),
    addons: await db('billing_addon_purchases').where(mine).orderBy('id'),
    events: await db('billing_events').where(mine).orderBy('event_id').select('event_id', 'outcome', 'applied_at'),
    deliveries: await db('webhook_deliveries').where(mine).orderBy(['created_at', 'id']).select('kind', 'payload', 'status'),
  };
  const json = JSON.stringify(rows, (key, v) => (WRITTEN_AT.includes(key) ? v !== null : v));
  return JSON.parse(json.replaceAll(s.tenant.id, 'TENANT').replaceAll(s.k, 'K'));
}

const clean = await eventStore(h, SECRET, 'kclean', PERIOD);
const faulty = await eventStore(h, SECRET, 'kfault', PERIOD);
for (const s of [clean, faulty]) {
  await s.deliver(
    `mev_first_${s.k}`,
    'checkout.session.completed',
    T0,
    { id: `msub_first_${s.k}`, plan_code: 'growth' },
    {
      checkout: `mcs_first_${s.k}`,
      addons: [{ code: 'assistant_conversations_500', quantity: 1 }],
    },
  );
  await s.apply(`mev_first_${s.k}`);
}

t.test('a late checkout whose application fails before it is marked applied: the retry accepts it as a clean run does', async (t) => {
  for (const s of [clean, faulty])
    await s.deliver(
      `mev_late_${s.k}`,
      'checkout.session.completed',
      T0 + 10,
      { id: `msub_late_${s.k}`, plan_code: 'scale' },
      { checkout: `mcs_stale_${s.k}`, addons: [] },
    );
  t.equal(await clean.apply('mev_late_kclean'), 'late_checkout_accepted', 'clean run');

  const fault = await failOnce(db, {
    name: 'fault_mark_applied',
    table: 'billing_events',
    on: 'UPDATE',
    when: `NEW.event_id = 'mev_late_kfault' AND NEW.applied_at IS NOT NULL`,
  });
  t.teardown(() => fault.remove());
  const before = await state(faulty);
  const heard = faulty.published.length;
  await t.rejects(faulty.apply('mev_late_kfault'), /injected fault/, 'the first attempt fails at its last write');
  t.equal(await fault.tried(), 1, 'the fault was hit');
  t.same(await state(faulty), before, 'nothing of the failed attempt stays (checkouts, subscription, event, deliveries)');
  t.equal(faulty.published.length, heard, 'no notice about a change that rolled back');

  t.equal(await faulty.apply('mev_late_kfault'), 'late_checkout_accepted', 'the retry accepts the late checkout');
  t.same(await state(faulty), await state(clean), 'the same state as the clean run');
  t.match(await db('billing_checkouts').where({ id: 'chk_first_kfault' }).first(), { status: 'replaced', superseded_by: 'mcs_stale_kfault', closed_at: null });
  const cancel = await h.api.deps.queues.get(BILLING_QUEUE).getJob(closeCheckoutJob.jobId({ checkoutId: 'chk_first_kfault', status: 'replaced' }));
  t.ok(cancel, 'the cancel of the replaced subscription is queued');
  t.equal(faulty.published.length, clean.published.length, 'as many notices as the clean run');
});

t.test('a cancellation whose application fails at ending the add-ons: the retry ends them and tells the store once', async (t) => {
  for (const s of [clean, faulty])
    await s.deliver(`mev_cancel_${s.k}`, 'subscription.deleted', T0 + 20, { id: `msub_late_${s.k}`, plan_code: 'scale', status: 'canceled' });
  t.equal(await clean.apply('mev_cancel_kclean'), 'applied', 'clean run');

  const fault = await failOnce(db, { name: 'fault_addons_end', table: 'billing_addon_purchases', on: 'UPDATE', when: `NEW.tenant_id = '${faulty.tenant.id}'` });
  t.teardown(() => fault.remove());
  const before = await state(faulty);
  const heard = faulty.published.length;
  await t.rejects(faulty.apply('mev_cancel_kfault'), /injected fault/, 'the first attempt fails after writing the subscription');
  t.equal(await fault.tried(), 1, 'the fault was hit');
  t.same(await state(faulty), before, 'the subscription is not left canceled with its add-ons running');
  t.equal(faulty.published.length, heard, 'no notice about a change that rolled back');

  t.equal(await faulty.apply('mev_cancel_kfault'), 'applied');
  const after = await state(faulty);
  t.same(after, await state(clean), 'the same state as the clean run');
  t.match(after.subscription, { status: 'canceled' });
  t.match(
    after.deliveries.at(-1),
    { kind: 'subscription.changed', payload: { status: 'canceled', previous_status: 'active' } },
    'the store is told of the cancel',
  );
  t.equal(faulty.published.length, 3, 'one notice per change (subscribed, the late plan, canceled), as in the clean run');
  t.equal(clean.published.length, 3);
  const queue = h.api.deps.queues.get(deliverJob.queue);
  for (const d of await db('webhook_deliveries').where({ tenant_id: faulty.tenant.id }))
    t.ok(await queue.getJob(deliverJob.jobId({ deliveryId: d.id, attempt: 1 })), `delivery ${d.kind} queued`);
});
