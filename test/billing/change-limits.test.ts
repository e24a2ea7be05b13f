import t from 'tap';
import { setup, type Reply } from '../helpers/harness.js';
import { waitFor } from '../helpers/wait.js';
import { startStripeFake } from './stripe-fake.js';
import { stripeEnv } from './stripe-env.js';
import { holdStripe, stripeStore } from './stripe-store.js';
import { lockStoreWithin } from '../../shared/billing/change-limits.js';

// Billing changes hold a pooled connection and their store's lock through Stripe's call. Stripe
// is held here (its fake answers nothing until released), so each change stays at that point: a
// second change of the same store must be refused at once (409), not wait for the lock; changes
// past BILLING_MAX_CONCURRENT must be refused (503) instead of taking the pool (10 connections)
// from every other request of the process.
const KEY = 'sk_test_fake_change_limits';
const WHSEC = 'whsec_change_limits_0123';
const fake = await startStripeFake(KEY);
// Stripe's requests never time out here: the fake is held as long as a test needs.
const h = await setup({ ...stripeEnv(fake.url, KEY, WHSEC), BILLING_MAX_CONCURRENT: '2', BILLING_WAIT_MS: '200', BILLING_PROVIDER_TIMEOUT_MS: '60000' });
let release: (() => void) | undefined;
t.teardown(async () => {
  release?.();
  await h.close();
  await fake.close();
});
const db = h.api.deps.db;
// Every store subscribes before any test changes the fake's subscription.
const store = await stripeStore(h, fake, WHSEC, 'pair');
const burst = await Promise.all(Array.from({ length: 11 }, (_, i) => stripeStore(h, fake, WHSEC, `burst${i}`)));
const bystander = await h.tenant('Bystander');

t.test('a second change of a store while the first waits on Stripe: 409 billing_change_in_progress, nothing written; the first completes', async (t) => {
  release = holdStripe(fake);
  const first = store.api('POST', '/v1/billing/change-plan', { plan_code: 'scale' }, { 'idempotency-key': 'limits-first-0001' });
  await waitFor(() => fake.state.held === 1, 20_000, 'the first change at Stripe');
  const calls = fake.calls.length;
  const buy = () => store.api('POST', '/v1/billing/addons/purchase', { code: 'assistant_conversations_500' }, { 'idempotency-key': 'limits-second-0001' });
  const second = await buy();
  t.equal(second.status, 409, 'refused, not left waiting on the lock');
  t.equal(second.body.error?.code, 'billing_change_in_progress');
  t.equal(second.headers.get('retry-after'), '1');
  t.equal(fake.calls.length, calls, 'the second never called Stripe');
  t.equal(await store.purchases(), 0, 'the second wrote nothing');

  release();
  t.match(await first, { status: 200, body: { plan_code: 'scale' } }, 'the first completes');
  t.match(await store.row(), { plan_code: 'scale' });
  const retry = await buy();
  t.equal(retry.status, 200, 'the retry with the same key runs: the refusal was not kept as its answer');
  t.equal(await store.purchases(), 1);
});

t.test('more changes at once than BILLING_MAX_CONCURRENT: the extra ones 503 billing_busy, other requests still get a connection', async (t) => {
  release = holdStripe(fake);
  const answered: Reply[] = [];
  const cancels = burst.map((s) => s.api('POST', '/v1/billing/cancel', { at_period_end: true }).then((r) => (answered.push(r), r)));
  // On the old code every change reaches Stripe (as many as the pool has connections): that ends the wait too.
  await waitFor(() => (answered.length === 9 && fake.state.held === 2) || fake.state.held > 2, 30_000, 'the changes past the limit answered');
  t.equal(fake.state.held, 2, 'two changes at Stripe at once, no more');
  t.same(
    answered.map((r) => [r.status, r.body.error?.code, r.headers.get('retry-after')]),
    Array.from({ length: 9 }, () => [503, 'billing_busy', '1']),
    'the other nine are refused, retryable',
  );
  const other = await h.api.call('GET', '/v1/billing/subscription', { key: bystander.key });
  t.equal(other.status, 200, 'another request of the process gets a connection meanwhile');

  release();
  const all = await Promise.all(cancels);
  t.equal(all.filter((r) => r.status === 200).length, 2, 'the two at Stripe complete');
  const rows = await db('billing_subscriptions').whereIn(
    'tenant_id',
    burst.map((s) => s.tenant.id),
  );
  t.equal(rows.filter((r) => r.cancel_at_period_end).length, 2, 'only they wrote');
  t.equal(fake.calls.filter((c) => c.method === 'POST' && c.form.cancel_at_period_end === 'true').length, 2, 'only they called Stripe');
});

t.test("the short wait is for the store's lock only: the change's later statements wait as any other", async (t) => {
  const setting = await db.transaction(async (trx) => {
    await lockStoreWithin(trx, store.tenant.id, 200);
    return (await trx.raw('SHOW lock_timeout')).rows[0].lock_timeout;
  });
  t.equal(setting, (await db.raw('SHOW lock_timeout')).rows[0].lock_timeout, "the connection's own lock_timeout once the lock is held");
});
