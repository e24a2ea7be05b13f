import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { startStripeFake } from './stripe-fake.js';
import { postStripeEvent, stripeEnv } from './stripe-env.js';
import { requeueBillingEvents } from '../../pipelines/billing/requeue-billing-events.stage.js';

// Checkouts a completion superseded are expired at Stripe (a local server answering as Stripe does) by a real worker.
const KEY = 'sk_test_fake_expire_0123456789';
const WHSEC = 'whsec_expire_test_0123';
const fake = await startStripeFake(KEY);
const { h } = await setupWithWorkers(stripeEnv(fake.url, KEY, WHSEC));
t.teardown(() => fake.close());
const db = h.api.deps.db;

async function store() {
  const tenant = await h.tenant();
  const checkout = async (plan_code: string): Promise<string> => {
    const res = await h.api.call('POST', '/v1/billing/checkout', { key: tenant.key, body: { plan_code } });
    if (res.status !== 200) throw new Error(`checkout answered ${res.status}`);
    return new URL(res.body.url).pathname.split('/').pop()!;
  };
  return { tenant, checkout };
}

let seq = 0;
/** A signed Stripe event to the webhook; resolves once the worker applied it, with its outcome. */
async function deliver(type: string, object: Record<string, unknown>): Promise<string> {
  const id = `evt_expire_${++seq}`;
  const body = JSON.stringify({ id, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } });
  const res = await postStripeEvent(h.api, WHSEC, body);
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  return eventually(async () => (await db('billing_events').where({ provider: 'stripe', event_id: id }).whereNotNull('applied_at').first())?.outcome);
}
const completed = (session: string, tenantId: string, subscription: string) =>
  deliver('checkout.session.completed', { id: session, object: 'checkout.session', status: 'complete', subscription, metadata: { tenant_id: tenantId } });
const checkoutRow = (session: string) => db('billing_checkouts').where({ provider: 'stripe', provider_checkout_id: session }).first();
const closed = (session: string) => eventually(async () => ((await checkoutRow(session))?.closed_at ? checkoutRow(session) : null), 30_000);
const expireCalls = (session: string) => fake.calls.filter((c) => c.method === 'POST' && c.path === `/v1/checkout/sessions/${session}/expire`);
const subscription = (id: string, tenantId: string, plan: string, status = 'active') => ({
  ...structuredClone(fake.state.subscription),
  id,
  status,
  metadata: { tenant_id: tenantId, plan_code: plan },
});

t.test('a completed checkout expires the store’s other open sessions at Stripe, and no other store’s', async (t) => {
  const s = await store();
  const other = await store();
  const [first, second] = [await s.checkout('growth'), await s.checkout('scale')];
  const foreign = await other.checkout('growth');
  fake.state.sessions.get(first)!.status = 'complete';
  t.equal(await completed(first, s.tenant.id, 'sub_a'), 'applied');
  const row = await closed(second);
  t.match(row, { status: 'superseded', superseded_by: first });
  t.equal(fake.state.sessions.get(second)!.status, 'expired', 'expired at Stripe');
  t.equal(expireCalls(second).length, 1);
  t.equal(expireCalls(second)[0].headers.authorization, `Bearer ${KEY}`);
  t.match(await checkoutRow(first), { status: 'completed', provider_subscription_id: 'sub_a' });
  t.equal(fake.state.sessions.get(foreign)!.status, 'open', 'another store’s checkout stays open');
  t.equal((await checkoutRow(foreign)).status, 'open');
});

t.test('Stripe down: the expire is retried until it lands', async (t) => {
  const s = await store();
  const [first, second] = [await s.checkout('growth'), await s.checkout('scale')];
  fake.state.failNext503 = 4; // more than the SDK's own two retries: the job's first attempt fails
  await completed(first, s.tenant.id, 'sub_b');
  await closed(second);
  t.equal(fake.state.sessions.get(second)!.status, 'expired');
  t.ok(expireCalls(second).length >= 4, `the expire was tried again after Stripe answered 503 (${expireCalls(second).length} calls)`);
});

t.test('a session Stripe already expired or completed counts as done', async (t) => {
  const s = await store();
  const [first, gone, paid] = [await s.checkout('growth'), await s.checkout('scale'), await s.checkout('scale')];
  fake.state.sessions.get(gone)!.status = 'expired';
  fake.state.sessions.get(paid)!.status = 'complete';
  await completed(first, s.tenant.id, 'sub_c');
  await closed(gone);
  await closed(paid);
  t.equal(fake.state.sessions.get(gone)!.status, 'expired');
  t.equal(fake.state.sessions.get(paid)!.status, 'complete', 'a paid session is left as Stripe has it');
  t.ok(
    fake.calls.find((c) => c.method === 'GET' && c.path === `/v1/checkout/sessions/${paid}`),
    'Stripe’s 400 was read back',
  );
});

t.test('a superseded session paid anyway: the store follows it, the earlier subscription is canceled at Stripe', async (t) => {
  const s = await store();
  const [first, stale] = [await s.checkout('growth'), await s.checkout('scale')];
  fake.state.sessions.get(first)!.status = 'complete';
  fake.state.sessions.get(stale)!.status = 'complete'; // the shopper paid it before its completion reached us
  await deliver('customer.subscription.created', subscription('sub_1', s.tenant.id, 'growth'));
  await completed(first, s.tenant.id, 'sub_1');
  await closed(stale);
  t.equal(fake.state.subscription.status, 'active', 'the first subscription stands while only it is paid');

  await deliver('customer.subscription.created', subscription('sub_2', s.tenant.id, 'scale'));
  t.equal(await completed(stale, s.tenant.id, 'sub_2'), 'late_checkout_accepted', 'recorded on the event');
  await eventually(async () => fake.state.subscription.status === 'canceled', 30_000);
  t.ok(
    fake.calls.find((c) => c.method === 'DELETE' && c.path === '/v1/subscriptions/sub_1'),
    'the replaced subscription is canceled at Stripe',
  );
  t.match(await checkoutRow(first), { status: 'replaced', superseded_by: stale });
  t.match(await checkoutRow(stale), { status: 'completed', superseded_by: first, provider_subscription_id: 'sub_2' });

  t.equal(await deliver('customer.subscription.deleted', subscription('sub_1', s.tenant.id, 'growth', 'canceled')), 'replaced_subscription');
  const row = await db('billing_subscriptions').where({ tenant_id: s.tenant.id }).first();
  t.match(row, { plan_code: 'scale', status: 'active', provider_subscription_id: 'sub_2' }, 'the replaced subscription’s end does not cancel the store');
});

t.test('a close whose job was lost is queued again by requeue-billing-events (the rows are the outbox)', async (t) => {
  const s = await store();
  const lost = await s.checkout('growth');
  // As if apply-billing-event superseded it and the process died before queueing the expire.
  await db('billing_checkouts').where({ provider_checkout_id: lost }).update({ status: 'superseded', superseded_by: 'cs_elsewhere' });
  t.equal(fake.state.sessions.get(lost)!.status, 'open');
  const out = (await requeueBillingEvents.run({ data: { unappliedAfterMs: 0 }, deps: h.api.deps } as never)) as { closes: number };
  t.equal(out.closes, 1);
  await closed(lost);
  t.equal(fake.state.sessions.get(lost)!.status, 'expired');
});
