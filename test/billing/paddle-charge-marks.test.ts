import t, { type Test } from 'tap';
import { startPaddleFake, paddlePurchase } from './paddle-fake.js';
import { PaddlePayments } from '../../shared/engines/payments/paddle.payments.js';

// Paddle takes no idempotency key: a one-time charge is announced in the subscription's custom_data
// (a pending mark under the request's Idempotency-Key) before it is made, and a retry of that key
// asks Paddle's transactions whether it was made. Paddle's PATCH replaces custom_data whole. These
// check that no other write (a plan change, another purchase, another plan change) takes a mark away
// from a retry still to come, that marks written before the lists are still read, and that the
// marks stay few: the retention (the Idempotency-Key's), and at most 20 a slot.
const KEY = 'pdl_apikey_charge_marks_0123';
const TENANT = 'tnt_marks';
const prices = { 'growth:month': 'pri_growth_m', 'scale:month': 'pri_scale_m', 'addon:assistant_conversations_500': 'pri_conv500' };
const HOUR = 3600_000;

/** A Paddle fake (closed with `t`) whose subscription's custom_data holds ours and a key of someone else's, and the adapter billing through it. */
async function paddleAt(t: Test, markRetentionMs?: number) {
  const fake = await startPaddleFake(KEY);
  t.teardown(() => fake.close());
  fake.state.sub.custom_data = { tenant_id: TENANT, plan_code: 'growth', utm_source: 'newsletter' };
  const paddle = new PaddlePayments({ apiKey: KEY, apiUrl: fake.url, prices, markRetentionMs });
  /** One-time charges of `quantity` bundles Paddle billed (each test's purchases differ in quantity). */
  const billed = (quantity: number) => fake.charged().filter((c) => c.quantity === quantity).length;
  /** The keys a mark slot holds, in order (a list, or one mark of the shape before the lists). */
  const keysIn = (slot: string) => {
    const v = fake.state.sub.custom_data[slot];
    return (Array.isArray(v) ? v : v ? [v] : []).map((m: { key: string }) => m.key);
  };
  /** Transaction lookups since the call `from` (fake.calls.length before it). */
  const lookupsSince = (from: number) => fake.calls.slice(from).filter((c) => c.method === 'GET' && c.path.startsWith('/transactions?')).length;
  return { fake, paddle, billed, keysIn, lookupsSince };
}

/** An add-on purchase of `quantity` bundles under `key`. */
const purchase = (key: string, quantity: number) => paddlePurchase(TENANT, key, quantity);

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

const mark = (key: string, agoMs: number) => ({ key, at: new Date(Date.now() - agoMs).toISOString(), seen: [] as string[] });

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
  t.same(keysIn('addon_charge_done'), ['pdl-marks-a-chg-0002'], "the change's done mark");

  await paddle.charge(purchase('pdl-marks-a-0002', 3));
  t.equal(billed(3), 1, 'the retry found the charge: billed once');
  await paddle.changePlan(change('pdl-marks-a-chg-0002', 'scale', 2));
  t.equal(billed(2), 1, "the change's retry finds its done mark: billed once");
});

t.test('purchase A billed but answered 500, purchase B succeeds, then both retried: each billed once', async (t) => {
  const { fake, paddle, billed, keysIn } = await paddleAt(t);
  fake.state.failChargeBilled = 1;
  await t.rejects(paddle.charge(purchase('pdl-marks-b-A001', 3)), 'A: Paddle billed it and answered 500');
  await paddle.charge(purchase('pdl-marks-b-B001', 2));
  t.same(keysIn('addon_purchase_pending'), ['pdl-marks-b-A001', 'pdl-marks-b-B001'], "B's mark did not replace A's");

  await paddle.charge(purchase('pdl-marks-b-A001', 3));
  t.equal(billed(3), 1, "A's retry found A's charge: billed once");
  await paddle.charge(purchase('pdl-marks-b-B001', 2));
  t.equal(billed(2), 1, "B's retry found B's charge: billed once");
  t.equal(fake.state.sub.custom_data.utm_source, 'newsletter');
});

t.test('plan change X billed but answered 500, plan change Y succeeds, then X retried: billed once, and a later change keeps its done mark', async (t) => {
  const { fake, paddle, billed, keysIn, lookupsSince } = await paddleAt(t);
  fake.state.failChargeBilled = 1;
  await t.rejects(paddle.changePlan(change('pdl-marks-chg-X001', 'scale', 3)), 'X: Paddle billed the bundles and answered 500');
  await paddle.changePlan(change('pdl-marks-chg-Y001', 'growth', 2));
  t.same(keysIn('addon_charge_pending'), ['pdl-marks-chg-X001'], "Y's change kept X's pending mark");
  t.same(keysIn('addon_charge_done'), ['pdl-marks-chg-Y001']);

  await paddle.changePlan(change('pdl-marks-chg-X001', 'scale', 3));
  t.equal(billed(3), 1, "X's retry found X's charge: billed once");
  t.same(keysIn('addon_charge_pending'), [], 'its pending mark became a done one');
  t.same(keysIn('addon_charge_done'), ['pdl-marks-chg-Y001', 'pdl-marks-chg-X001']);

  await paddle.changePlan(change('pdl-marks-chg-Z001', 'growth', 1));
  const from = fake.calls.length;
  await paddle.changePlan(change('pdl-marks-chg-X001', 'scale', 3));
  await paddle.changePlan(change('pdl-marks-chg-Y001', 'growth', 2));
  t.equal(billed(3), 1, 'X again after Z: billed once');
  t.equal(billed(2), 1, 'Y again after X and Z: billed once');
  t.equal(lookupsSince(from), 0, 'their done marks answered: Paddle was not asked');
  t.equal(fake.state.sub.custom_data.utm_source, 'newsletter');
});

t.test(
  'marks of the shape written before the lists (one mark a slot, the done key a string) are still honoured, and kept when another request writes',
  async (t) => {
    const { fake, paddle, billed, keysIn, lookupsSince } = await paddleAt(t);
    // A purchase and a plan change whose charges Paddle made, the answers lost, as the earlier code marked them.
    fake.state.sub.custom_data = {
      ...fake.state.sub.custom_data,
      addon_purchase_pending: mark('pdl-marks-old-P001', 5_000),
      addon_charge_pending: mark('pdl-marks-old-C001', 5_000),
    };
    fake.chargedElsewhere(1, [{ price_id: 'pri_conv500', quantity: 3 }]);
    fake.chargedElsewhere(1, [{ price_id: 'pri_conv500', quantity: 2 }]);

    await paddle.charge(purchase('pdl-marks-old-P001', 3));
    t.equal(billed(3), 1, 'the old purchase mark found its charge: not billed again');
    await paddle.changePlan(change('pdl-marks-old-C001', 'scale', 2));
    t.equal(billed(2), 1, 'the old plan change mark found its charge: not billed again');

    // Another purchase writes custom_data: the old purchase mark becomes one of the list.
    await paddle.charge(purchase('pdl-marks-old-P002', 1));
    t.same(keysIn('addon_purchase_pending'), ['pdl-marks-old-P001', 'pdl-marks-old-P002'], 'rewritten as a list, the old mark kept');
    t.ok(Array.isArray(fake.state.sub.custom_data.addon_purchase_pending));
    await paddle.charge(purchase('pdl-marks-old-P001', 3));
    t.equal(billed(3), 1, 'the old purchase retried again: still billed once');

    // The done key as a string: a retry charges nothing and asks Paddle nothing; a later write moves it into the list.
    fake.state.sub.custom_data = { ...fake.state.sub.custom_data, addon_charge_key: 'pdl-marks-old-D001' };
    delete fake.state.sub.custom_data.addon_charge_done;
    let from = fake.calls.length;
    await paddle.changePlan(change('pdl-marks-old-D001', 'scale', 4));
    t.equal(billed(4), 0, 'a change marked done by the old string key charges nothing');
    t.equal(lookupsSince(from), 0, 'and asks Paddle nothing');
    await paddle.changePlan(change('pdl-marks-old-D002', 'growth', 0));
    t.notOk('addon_charge_key' in fake.state.sub.custom_data, 'the string key moved out');
    t.same(keysIn('addon_charge_done'), ['pdl-marks-old-D001'], 'into the done list');
    from = fake.calls.length;
    await paddle.changePlan(change('pdl-marks-old-D001', 'scale', 4));
    t.equal(billed(4), 0, 'still done after the move');
    t.equal(lookupsSince(from), 0);
  },
);

t.test('marks older than the retention are dropped when custom_data is written, and a slot keeps the newest 20', async (t) => {
  const { fake, paddle, keysIn } = await paddleAt(t);
  const fresh = Array.from({ length: 25 }, (_, i) => mark(`pdl-marks-fresh-${String(i).padStart(2, '0')}`, (30 - i) * 60_000));
  fake.state.sub.custom_data = {
    ...fake.state.sub.custom_data,
    addon_purchase_pending: [mark('pdl-marks-stale-P01', 49 * HOUR), ...fresh, mark('pdl-marks-stale-P02', 72 * HOUR)],
    addon_charge_pending: [mark('pdl-marks-stale-C01', 49 * HOUR), mark('pdl-marks-kept-C01', 47 * HOUR)],
    addon_charge_done: [
      { key: 'pdl-marks-stale-D01', at: new Date(Date.now() - 50 * HOUR).toISOString() },
      { key: 'pdl-marks-kept-D01', at: new Date(Date.now() - HOUR).toISOString() },
    ],
  };

  await paddle.charge(purchase('pdl-marks-new-P001', 1));
  const kept = keysIn('addon_purchase_pending');
  t.equal(kept.length, 20, 'at most 20 purchase marks');
  t.same(kept, [...fresh.slice(-19).map((m) => m.key), 'pdl-marks-new-P001'], 'the newest kept, oldest first, the new one last');
  t.same(keysIn('addon_charge_pending'), ['pdl-marks-kept-C01'], "the plan changes' pending marks past 48 h dropped too");
  t.same(keysIn('addon_charge_done'), ['pdl-marks-kept-D01'], 'and their done marks');

  for (let i = 0; i < 22; i++) await paddle.changePlan(change(`pdl-marks-many-${String(i).padStart(2, '0')}`, i % 2 ? 'growth' : 'scale', 1));
  t.equal(keysIn('addon_charge_done').length, 20, 'at most 20 done marks');
  t.equal(keysIn('addon_charge_done').at(-1), 'pdl-marks-many-21', 'the newest kept');
  t.same(keysIn('addon_charge_pending'), ['pdl-marks-kept-C01']);
  t.equal(keysIn('addon_purchase_pending').length, 20, "the purchases' marks kept by the plan changes");
  t.ok(JSON.stringify(fake.state.sub.custom_data).length < 8_000, `custom_data stays small (${JSON.stringify(fake.state.sub.custom_data).length} chars)`);
});

t.test('the retention is the one the adapter is given (IDEMPOTENCY_TTL_HOURS in the service)', async (t) => {
  const { fake, paddle, keysIn } = await paddleAt(t, 2 * HOUR);
  fake.state.sub.custom_data = {
    ...fake.state.sub.custom_data,
    addon_purchase_pending: [mark('pdl-marks-ttl-P01', 3 * HOUR), mark('pdl-marks-ttl-P02', HOUR)],
  };
  await paddle.changePlan(change('pdl-marks-ttl-C001', 'scale', 0));
  t.same(keysIn('addon_purchase_pending'), ['pdl-marks-ttl-P02'], 'a mark older than 2 h dropped, a younger one kept');
});
