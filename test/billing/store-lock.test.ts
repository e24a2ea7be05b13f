import t from 'tap';
import { setup } from '../helpers/harness.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';
import { waitFor } from '../helpers/wait.js';
import { eventStore } from './event-store.js';
import { stageStores } from './stage-store.js';
import { endBillingPeriods } from '../../pipelines/billing/end-billing-periods.stage.js';

// Two writers on one store's billing at the same moment (a provider event and an API change, two
// events, two end-billing-periods runs): the first is stopped at its subscription write (a trigger
// waiting on a lock the test holds) and the second started beside it; the second must wait for
// the first's commit and start from its result, so the store is told of each change once, with the
// status it really replaced. The old code let the second read the same `before` (it waited at its
// write, or not at all), so the waits below also end when the second finishes first.
const SECRET = 'mock_whsec_store_lock_01';
// An API change held behind another writer waits its turn here (BILLING_WAIT_MS at its longest)
// instead of answering 409 billing_change_in_progress: change-limits.test.ts tests that answer.
const h = await setup({
  MOCK_WEBHOOK_SECRET: SECRET,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  BILLING_DEFAULT_PLAN: 'free',
  API_STATEMENT_TIMEOUT_MS: '0',
  BILLING_WAIT_MS: '10000',
});
const stages = stageStores(h);
t.teardown(stages.closeAll);
const db = h.api.deps.db;
const T0 = Math.floor(Date.now() / 1000);

const store = () => stages.store({ plan_code: 'growth', interval: 'month' });

/**
 * Starts `run` once `first` waits at the hold, and answers once `run` waits behind it (or, on the
 * old code, has finished) with its promise, wrapped: an async function would wait for it.
 */
async function beside<T>(first: string, run: () => Promise<T>): Promise<{ second: Promise<T> }> {
  await waitFor(async () => (await lockWaiters(db)) === 1, 20_000, `${first} held`);
  let finished = false;
  const second = run().finally(() => (finished = true));
  await waitFor(async () => finished || (await lockWaiters(db)) === 2, 20_000, 'the second waiting');
  return { second };
}

/** Lets a hold go (if a failing test left it held, its writers would block DROP TRIGGER) and removes it. */
async function unhold(hold: Awaited<ReturnType<typeof holdWrites>>) {
  await hold.release().catch(() => undefined);
  await hold.remove();
}

const told = (s: { tenant: { id: string } }) =>
  db('webhook_deliveries').where({ tenant_id: s.tenant.id, kind: 'subscription.changed' }).orderBy(['created_at', 'id']).pluck('payload');

t.test('two provider events of one store at once: the second reports the first as its previous status', async (t) => {
  const s = await eventStore(h, SECRET, 'kpair', { current_period_start: T0, current_period_end: T0 + 30 * 86400 });
  await s.deliver('mev_pair_sub', 'subscription.created', T0, { id: 'msub_pair', plan_code: 'growth' });
  await s.apply('mev_pair_sub');
  await s.deliver('mev_pair_failed', 'invoice.payment_failed', T0 + 10, { id: 'msub_pair', plan_code: 'growth', status: 'past_due' });
  await s.deliver('mev_pair_paid', 'invoice.paid', T0 + 20, { id: 'msub_pair', plan_code: 'growth', status: 'active' });

  const hold = await holdWrites(db, {
    name: 'hold_pair_failed',
    table: 'billing_subscriptions',
    on: 'INSERT',
    when: `NEW.tenant_id = '${s.tenant.id}' AND NEW.status = 'past_due'`,
  });
  t.teardown(() => unhold(hold));
  const failed = s.apply('mev_pair_failed');
  const { second: paid } = await beside('the payment failure', () => s.apply('mev_pair_paid'));
  await hold.release();
  t.same(await Promise.all([failed, paid]), ['applied', 'applied'], 'both apply, in turn');

  t.match(await db('billing_subscriptions').where({ tenant_id: s.tenant.id }).first(), { status: 'active' });
  t.match(
    await told(s),
    [
      { status: 'active', previous_status: null },
      { status: 'past_due', previous_status: 'active' },
      { status: 'active', previous_status: 'past_due' },
    ],
    'told of each change with the status it replaced',
  );
  t.equal(s.published.length, 3, 'one notice per change');
});

t.test('a plan change and its own provider event applied at the same moment: the store is told once', async (t) => {
  const s = await store();
  // The API's row update waits at the hold, after the mock has sent the change's event.
  const hold = await holdWrites(db, { name: 'hold_change', table: 'billing_subscriptions', on: 'UPDATE', when: `NEW.tenant_id = '${s.tenant.id}'` });
  t.teardown(() => unhold(hold));
  const change = s.api('POST', '/v1/billing/change-plan', { plan_code: 'scale' });
  await waitFor(async () => (await lockWaiters(db)) === 1, 20_000, 'the change held');
  const [eventId] = await s.unapplied();
  t.ok(eventId, 'the provider sent the change');
  const { second: applied } = await beside('the change', () => s.apply(eventId));
  await hold.release();
  t.match(await change, { status: 200, body: { plan_code: 'scale' } });
  t.ok(['applied', 'stale'].includes(await applied), 'the event lands after the change');

  t.match(await s.row(), { plan_code: 'scale', status: 'active' });
  t.same(await s.told(), [
    { plan_code: 'growth', status: 'active', previous_status: null, cancel_at_period_end: false },
    { plan_code: 'scale', status: 'active', previous_status: 'active', cancel_at_period_end: false },
  ]);
  t.equal(await s.noticed(), 2, 'one notice per change');
});

t.test('a failed renewal applied while the store cancels: the cancel starts from past_due', async (t) => {
  const s = await store();
  await s.portal('renew-fail');
  const [eventId] = await s.unapplied();
  // The event's subscription write waits at the hold (the API's cancel is an UPDATE, not held).
  const hold = await holdWrites(db, { name: 'hold_renew_fail', table: 'billing_subscriptions', on: 'INSERT', when: `NEW.tenant_id = '${s.tenant.id}'` });
  t.teardown(() => unhold(hold));
  const applied = s.apply(eventId);
  const { second: cancel } = await beside('the failed renewal', () => s.api('POST', '/v1/billing/cancel', { at_period_end: false }));
  await hold.release();
  t.equal(await applied, 'applied');
  t.match(await cancel, { status: 200, body: { status: 'canceled' } });
  await s.settle();

  t.match(await s.row(), { status: 'canceled' });
  t.match(await s.told(), [
    { status: 'active', previous_status: null },
    { status: 'past_due', previous_status: 'active' },
    { status: 'canceled', previous_status: 'past_due' },
  ]);
  t.equal((await s.told()).length, 3, 'the cancel event from the provider tells nothing more');
});

t.test('two end-billing-periods runs at once end a subscription once', async (t) => {
  const s = await store();
  t.equal((await s.api('POST', '/v1/billing/cancel', { at_period_end: true })).status, 200);
  await s.settle();
  await db('billing_subscriptions')
    .where({ tenant_id: s.tenant.id })
    .update({ current_period_end: new Date(Date.now() - 60_000) });

  const hold = await holdWrites(db, { name: 'hold_period_end', table: 'billing_subscriptions', on: 'UPDATE', when: `NEW.tenant_id = '${s.tenant.id}'` });
  t.teardown(() => unhold(hold));
  const run = () => endBillingPeriods.run({ data: {}, deps: h.api.deps } as never) as Promise<{ ended: number; changed: number }>;
  const first = run();
  const { second } = await beside('the first run', run);
  await hold.release();
  t.same(await Promise.all([first, second]), [
    { ended: 1, changed: 0 },
    { ended: 0, changed: 0 },
  ]);

  t.match(await s.row(), { status: 'canceled', cancel_at_period_end: false });
  const canceled = (await s.told()).filter((p: { status: string }) => p.status === 'canceled');
  t.match(canceled, [{ previous_status: 'active', cancel_at_period_end: false }], 'told of the end once');
});
