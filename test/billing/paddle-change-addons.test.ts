import t, { type Test } from 'tap';
import { createHmac } from 'node:crypto';
import { setup } from '../helpers/harness.js';
import { startPaddleFake } from './paddle-fake.js';
import { applyBillingEvent } from '../../pipelines/billing/apply-billing-event.stage.js';
import { PaddlePayments } from '../../shared/engines/payments/paddle.payments.js';

// Add-on bundles bought with a plan change are a one-time charge at Paddle, which takes no
// idempotency key: the charge is marked pending in the subscription's custom_data before it and
// done after it. A retry that finds only the pending mark asks Paddle's transactions whether the
// charge was made. Paddle fails one step of the first attempt; the client retries with the same key.
const KEY = 'pdl_apikey_change_addons_0123';
const SECRET = 'pdl_ntfset_change_addons_0123';
const PRICES = 'growth:month=pri_growth_m,scale:month=pri_scale_m,addon:assistant_conversations_500=pri_conv500';
const fake = await startPaddleFake(KEY);
const h = await setup({ BILLING_PROVIDER: 'paddle', PADDLE_API_KEY: KEY, PADDLE_API_URL: fake.url, PADDLE_WEBHOOK_SECRET: SECRET, PADDLE_PRICES: PRICES });
t.teardown(async () => {
  await h.close();
  await fake.close();
});
const tenant = await h.tenant();
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key: tenant.key, body, headers });
/** An add-on purchase of `quantity` bundles of 500 conversations through the API, under Idempotency-Key `key`. */
const buyAddon = (key: string, quantity: number) =>
  api('POST', '/v1/billing/addons/purchase', { code: 'assistant_conversations_500', quantity }, { 'idempotency-key': key });
const units = async () => (await api('GET', '/v1/billing/subscription')).body.addons.assistant_conversations_500?.units ?? 0;
const lookups = () => fake.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/transactions?subscription_id='));
const bundles = (quantity: number) => ({ addons: [{ code: 'assistant_conversations_500', quantity }] });
/** The keys whose marks a custom_data slot holds (a list of marks a slot, one a request's key; one mark, as written before the lists). */
const keysIn = (slot: string) => {
  const v = fake.state.sub.custom_data[slot];
  return (Array.isArray(v) ? v : v ? [v] : []).map((m: { key: string }) => m.key);
};

/** The first attempt fails at Paddle (status 5xx, nothing of ours written), then the client retries with the same key. */
async function changeWithRetry(t: Test, body: unknown, key: string) {
  const before = await units();
  const first = await api('POST', '/v1/billing/change-plan', body, { 'idempotency-key': key });
  t.ok(first.status >= 500, `the first attempt fails (${first.status})`);
  t.equal(await units(), before, 'the failed attempt recorded no bundles');
  t.ok(keysIn('addon_charge_pending').includes(key), 'the charge was marked pending before it was made');
  t.notOk(keysIn('addon_charge_done').includes(key), 'and not marked done');
  const retry = await api('POST', '/v1/billing/change-plan', body, { 'idempotency-key': key });
  t.equal(retry.status, 200, 'the client retries with the same key');
  t.match(fake.state.sub.custom_data, { tenant_id: tenant.id, plan_code: body && (body as { plan_code: string }).plan_code });
  t.ok(keysIn('addon_charge_done').includes(key) && !keysIn('addon_charge_pending').includes(key), 'marked done');
  return retry;
}

t.before(async () => {
  const body = JSON.stringify({
    event_id: 'evt_created',
    event_type: 'subscription.created',
    occurred_at: new Date().toISOString(),
    data: { ...fake.state.sub, custom_data: { tenant_id: tenant.id, plan_code: 'growth' } },
  });
  const ts = Math.floor(Date.now() / 1000);
  const h1 = createHmac('sha256', SECRET).update(`${ts}:${body}`).digest('hex');
  const headers = { 'content-type': 'application/json', 'paddle-signature': `ts=${ts};h1=${h1}` };
  await h.api.call('POST', '/v1/billing/webhooks/paddle', { rawBody: body, headers });
  await applyBillingEvent.run({ data: { provider: 'paddle', eventId: 'evt_created' }, deps: h.api.deps } as never);
});

t.test('the done mark fails after the charge: the retry finds the charge among Paddle’s transactions and charges nothing more', async (t) => {
  fake.state.failChargeMark = 3; // the adapter's three tries
  const res = await changeWithRetry(t, { plan_code: 'scale', ...bundles(2) }, 'pdl-chg-mark-0001');
  t.equal(res.body.plan_code, 'scale');
  t.equal(await units(), 1000, 'the store has the bundles once');
  t.same(fake.charged(), [{ price_id: 'pri_conv500', quantity: 2 }], 'Paddle billed the bundles once');
  // The charges already there are listed once for the pending mark, then the retry asks for the charge.
  t.equal(lookups().length, 2, 'the retry asked Paddle');
  t.match(lookups()[1].path, /subscription_id=sub_01&origin=subscription_charge&created_at\[GTE\]=/);
  t.same(keysIn('addon_charge_done'), ['pdl-chg-mark-0001']);
});

t.test('the charge fails after the pending mark: the retry finds no charge since the mark and charges once', async (t) => {
  fake.state.failCharge = 1; // a POST is not tried again on a 5xx (see below)
  // The same bundles as the charge above, made seconds before this change's mark: the mark lists
  // it as already there, so the retry does not take it for this change's.
  const res = await changeWithRetry(t, { plan_code: 'growth', ...bundles(2) }, 'pdl-chg-charge-0001');
  t.match(res.body, { plan_code: 'scale', pending_change: { plan_code: 'growth' } });
  t.equal(await units(), 2000);
  t.same(fake.charged(), [
    { price_id: 'pri_conv500', quantity: 2 },
    { price_id: 'pri_conv500', quantity: 2 },
  ]);
  t.equal(lookups().length, 5, "listed for the mark, asked by the retry, listed for the retry's mark");
});

/** The adapter itself, and a change to scale with `quantity` bundles under `key`, for the tests below that drive it directly. */
const paddle = new PaddlePayments({
  apiKey: KEY,
  apiUrl: fake.url,
  prices: { 'growth:month': 'pri_growth_m', 'scale:month': 'pri_scale_m', 'addon:assistant_conversations_500': 'pri_conv500' },
});
const changeToScale = (key: string, quantity: number) => ({
  tenantId: tenant.id,
  subscriptionId: 'sub_01',
  customerId: 'ctm_01',
  planCode: 'scale',
  interval: 'month' as const,
  chargeNowMinor: 0,
  creditMinor: 0,
  now: true,
  trialing: false,
  addons: [{ code: 'assistant_conversations_500', quantity, amountMinor: 1900 * quantity, currency: 'USD', description: `${quantity} x 500 conversations` }],
  idempotencyKey: key,
  baseUrl: 'http://x',
});

t.test('a retry after a full success finds the done mark and charges nothing', async (t) => {
  const input = changeToScale('pdl-chg-twice-0001', 1);
  const before = fake.charged().length;
  await paddle.changePlan(input);
  await paddle.changePlan(input);
  t.same(fake.charged().slice(before), [{ price_id: 'pri_conv500', quantity: 1 }], 'billed once');
  t.equal(lookups().length, 6, "listed once for the first call's mark; the done mark answers the second: Paddle was not asked");
  t.match(fake.state.sub.custom_data, { tenant_id: tenant.id, plan_code: 'scale' });
  t.equal(keysIn('addon_charge_done').at(-1), 'pdl-chg-twice-0001', "marked done, the earlier changes' done marks kept");
  t.same(keysIn('addon_charge_pending'), []);
});

t.test('a charge Paddle billed but answered 500 is not sent again in place: the change fails, and its retry finds the charge', async (t) => {
  const input = changeToScale('pdl-chg-lost-0001', 3);
  const before = fake.charged().length;
  fake.state.failChargeBilled = 1;
  await t.rejects(paddle.changePlan(input), 'the change fails with the charge');
  t.same(fake.charged().slice(before), [{ price_id: 'pri_conv500', quantity: 3 }], 'billed once, not again by a retry of the POST');
  await paddle.changePlan(input);
  t.same(fake.charged().slice(before), [{ price_id: 'pri_conv500', quantity: 3 }], "the change's retry finds the charge: still billed once");
  t.equal(keysIn('addon_charge_done').at(-1), 'pdl-chg-lost-0001', 'marked done');
});

t.test('an add-on purchase Paddle billed but answered 500: the retry with the same key finds the charge and bills nothing more', async (t) => {
  const before = fake.charged().length;
  const unitsBefore = await units();
  const buy = () => buyAddon('pdl-buy-lost-0001', 1);
  fake.state.failChargeBilled = 1;
  const first = await buy();
  t.ok(first.status >= 500, `the first attempt fails (${first.status})`);
  t.equal(await units(), unitsBefore, 'and records no bundles');
  t.match(fake.state.sub.custom_data, { tenant_id: tenant.id, plan_code: 'scale' }, 'the rest kept');
  t.same(keysIn('addon_purchase_pending'), ['pdl-buy-lost-0001'], 'marked pending before the charge');
  t.ok(keysIn('addon_charge_done').includes('pdl-chg-lost-0001'), "the plan changes' marks kept");
  const retry = await buy();
  t.equal(retry.status, 200, 'the retry with the same key');
  t.equal(await units(), unitsBefore + 500, 'the store has the bundle once');
  t.same(fake.charged().slice(before), [{ price_id: 'pri_conv500', quantity: 1 }], 'Paddle billed it once');
  const again = await buyAddon('pdl-buy-next-0001', 1);
  t.equal(again.status, 200);
  t.same(
    fake.charged().slice(before),
    [
      { price_id: 'pri_conv500', quantity: 1 },
      { price_id: 'pri_conv500', quantity: 1 },
    ],
    'a new purchase (another key) is billed',
  );
});

t.test("Paddle's clock behind ours: a retry still finds the charge made after its pending mark", async (t) => {
  fake.clock.offsetMs = -3_000;
  t.teardown(() => void (fake.clock.offsetMs = 0));
  const before = fake.charged().length;
  const buy = () => buyAddon('pdl-buy-skew-0001', 2);
  fake.state.failChargeBilled = 1;
  t.ok((await buy()).status >= 500, 'the first attempt fails after Paddle billed');
  t.equal((await buy()).status, 200, 'the retry with the same key');
  t.same(fake.charged().slice(before), [{ price_id: 'pri_conv500', quantity: 2 }], 'Paddle billed it once');
});

t.test('an add-on purchase Paddle billed but answered 500, a plan change, then the purchase retried: the change kept its mark, billed once', async (t) => {
  const before = fake.charged().length;
  const unitsBefore = await units();
  const buy = () => buyAddon('pdl-buy-then-change-0001', 3);
  fake.state.failChargeBilled = 1;
  t.ok((await buy()).status >= 500, 'the purchase fails after Paddle billed it');
  const changed = await api('POST', '/v1/billing/change-plan', { plan_code: 'growth' }, { 'idempotency-key': 'pdl-change-between-0001' });
  t.equal(changed.status, 200, 'the store changes plan');
  t.ok(keysIn('addon_purchase_pending').includes('pdl-buy-then-change-0001'), "the plan change kept the purchase's pending mark");
  t.equal((await buy()).status, 200, 'the purchase retried with its key');
  t.same(fake.charged().slice(before), [{ price_id: 'pri_conv500', quantity: 3 }], 'Paddle billed it once');
  t.equal(await units(), unitsBefore + 1500, 'the store has the bundles once');
});

t.test('purchase A Paddle billed but answered 500, purchase B with another key, then A retried: B kept A’s mark, each billed once', async (t) => {
  const before = fake.charged().length;
  const unitsBefore = await units();
  fake.state.failChargeBilled = 1;
  t.ok((await buyAddon('pdl-buy-A-0001', 4)).status >= 500, 'A fails after Paddle billed it');
  t.equal((await buyAddon('pdl-buy-B-0001', 5)).status, 200, 'B succeeds');
  t.ok(keysIn('addon_purchase_pending').includes('pdl-buy-A-0001'), "B's mark did not replace A's");
  t.equal((await buyAddon('pdl-buy-A-0001', 4)).status, 200, 'A retried with its key');
  t.same(
    fake.charged().slice(before),
    [
      { price_id: 'pri_conv500', quantity: 4 },
      { price_id: 'pri_conv500', quantity: 5 },
    ],
    'Paddle billed A once and B once',
  );
  t.equal(await units(), unitsBefore + 4500, 'the store has both once');
});
