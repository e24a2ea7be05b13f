import t from 'tap';
import { setup } from '../helpers/harness.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';
import { waitFor } from '../helpers/wait.js';
import { eventStore } from './event-store.js';

// Two workers on the same event at once (a stalled job run again, a redelivery requeued by
// reconcile): the event row is locked while one applies it, so the other waits and then finds it
// applied. The store is told of the change once.
const SECRET = 'mock_whsec_apply_twice_01';
const h = await setup({ MOCK_WEBHOOK_SECRET: SECRET, WEBHOOK_ALLOW_PRIVATE: 'true' });
t.teardown(() => h.close());
const db = h.api.deps.db;
const T0 = Math.floor(Date.now() / 1000);

t.test('the same event applied by two workers at once changes the store and tells it once', async (t) => {
  const s = await eventStore(h, SECRET, 'ktwice', { current_period_start: T0, current_period_end: T0 + 30 * 86400 });
  await s.deliver('mev_twice', 'subscription.created', T0, { id: 'msub_twice', plan_code: 'growth' });
  // Both runs are let in together: each stops at the subscription write, or before it at the event's lock.
  const hold = await holdWrites(db, { name: 'hold_subscription', table: 'billing_subscriptions', on: 'INSERT', when: `NEW.tenant_id = '${s.tenant.id}'` });
  t.teardown(() => hold.remove());
  const runs = [s.apply('mev_twice'), s.apply('mev_twice')];
  await waitFor(async () => (await lockWaiters(db)) === 2, 20_000, 'both runs waiting');
  await hold.release();
  t.same(await Promise.all(runs), ['applied', 'applied'], 'both answer the outcome');

  t.match(await db('billing_subscriptions').where({ tenant_id: s.tenant.id }).first(), { plan_code: 'growth', status: 'active' });
  const deliveries = await db('webhook_deliveries').where({ tenant_id: s.tenant.id, kind: 'subscription.changed' });
  t.equal(deliveries.length, 1, 'one notification of the change');
  t.equal(s.published.length, 1, 'one subscription notice');
  t.match(await db('billing_events').where({ provider: 'mock', event_id: 'mev_twice' }).first(), { outcome: 'applied', applied_at: Date });
});
