import t, { type Test } from 'tap';
import { startPaddleFake } from './paddle-fake.js';
import { PaddlePayments } from '../../shared/engines/payments/paddle.payments.js';

// Paddle takes no idempotency key: a one-time charge is announced in the subscription's custom_data
// (a pending mark under the request's Idempotency-Key) before it is made, and a retry of that key
// asks Paddle's transactions whether it was made. Paddle's PATCH replaces custom_data whole. These
// check that no other write (a plan change) takes a mark away from a retry still to come.
const KEY = 'pdl_apikey_charge_marks_0123';
const TENANT = 'tnt_marks';
const prices = { 'growth:month': 'pri_growth_m', 'scale:month': 'pri_scale_m', 'addon:assistant_conversations_500': 'pri_conv500' };

/** A Paddle fake (closed with `t`) whose subscription's custom_data holds ours and a key of someone else's, and the adapter billing through it. */
async function paddleAt(t: Test) {
  const fake = await startPaddleFake(KEY);
  t.teardown(() => fake.close());
  fake.state.sub.custom_data = { tenant_id: TENANT, plan_code: 'growth', utm_source: 'newsletter' };
  const paddle = new PaddlePayments({ apiKey: KEY, apiUrl: fake.url, prices });
  /** One-time charges of `quantity` bundles Paddle billed (each test's purchases differ in quantity). */
  const billed = (quantity: number) => fake.charged().filter((c) => c.quantity === quantity).length;
  /** The keys a mark slot holds, in order (a list, or one mark of the shape before the lists). */
  const keysIn = (slot: string) => {
    const v = fake.state.sub.custom_data[slot];
    return (Array.isArray(v) ? v : v ? [v] : []).map((m: { key: string }) => m.key);
  };
  return { fake, paddle, billed, keysIn };
}

/** An add-on purchase of `quantity` bundles under `key`. */
const purchase = (key: string, quantity: number) => ({
  tenantId: TENANT,
  customerId: 'ctm_01',
  subscriptionId: 'sub_01',
  amountMinor: 1900 * quantity,
  currency: 'USD',
  description: `${quantity} x 500 conversations`,
  item: { key: 'addon:assistant_conversations_500', quantity },
  baseUrl: 'http://x',
  idempotencyKey: key,
});

/** A plan change to `planCode` under `key`, with `quantity` bundles (none for 0). */
const change = (key: string, planCode: 'growth' | 'scale', quantity: number) => ({
  tenantId: TENANT,
  subscriptionId: 'sub_01',
  customerId: 'ctm_01',
  planCode,
  interval: 'month' as const,
  chargeNowMinor: 0,
  creditMinor: 0,
  now: true,
  trialing: false,
  addons: quantity ? [{ code: 'assistant_conversations_500', quantity, amountMinor: 1900 * quantity, currency: 'USD', description: `${quantity} x 500` }] : [],
  idempotencyKey: key,
  baseUrl: 'http://x',
});

t.test('a purchase billed but answered 500, then a plan change, then its retry: the mark survived the change, billed once', async (t) => {
  const { fake, paddle, billed, keysIn } = await paddleAt(t);
  fake.state.failChargeBilled = 1;
  await t.rejects(paddle.charge(purchase('pdl-marks-a-0001', 3)), 'Paddle billed the purchase and answered 500');
  t.equal(billed(3), 1);

  await paddle.changePlan(change('pdl-marks-a-chg-0001', 'scale', 0));
  t.match(fake.state.sub.custom_data, { tenant_id: TENANT, plan_code: 'scale', utm_source: 'newsletter' }, 'the plan change kept what custom_data held');
  t.same(keysIn('addon_purchase_pending'), ['pdl-marks-a-0001'], "and the purchase's pending mark");

  await paddle.charge(purchase('pdl-marks-a-0001', 3));
  t.equal(billed(3), 1, 'the retry found the charge: billed once');
});

t.test('the same with bundles bought with the plan change: both marks kept, each charge billed once', async (t) => {
  const { fake, paddle, billed, keysIn } = await paddleAt(t);
  fake.state.failChargeBilled = 1;
  await t.rejects(paddle.charge(purchase('pdl-marks-a-0002', 3)), 'Paddle billed the purchase and answered 500');

  await paddle.changePlan(change('pdl-marks-a-chg-0002', 'scale', 2));
  t.equal(billed(2), 1, "the change's bundles billed");
  t.match(fake.state.sub.custom_data, { plan_code: 'scale', utm_source: 'newsletter' });
  t.same(keysIn('addon_purchase_pending'), ['pdl-marks-a-0002'], "the purchase's pending mark kept by the change's PATCHes");

  await paddle.charge(purchase('pdl-marks-a-0002', 3));
  t.equal(billed(3), 1, 'the retry found the charge: billed once');
  await paddle.changePlan(change('pdl-marks-a-chg-0002', 'scale', 2));
  t.equal(billed(2), 1, "the change's retry finds its done mark: billed once");
});
