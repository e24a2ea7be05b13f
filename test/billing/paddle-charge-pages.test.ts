import t, { type Test } from 'tap';
import { startPaddleFake, paddlePurchase } from './paddle-fake.js';
import { PaddlePayments } from '../../shared/engines/payments/paddle.payments.js';

// A retry of an add-on purchase whose charge Paddle made (its answer lost) looks for that charge
// among the subscription's one-time charges since the pending mark. Paddle lists them 30 a page,
// newest first: charges made after it (elsewhere: Paddle's dashboard, another integration) push
// it to a later page, which the lookup must read before concluding it was not made.
const KEY = 'pdl_apikey_charge_pages_0123';
const prices = { 'growth:month': 'pri_growth_m', 'addon:assistant_conversations_500': 'pri_conv500' };

/** A Paddle fake closed with `t`, and the adapter billing through it. */
async function paddleAt(t: Test) {
  const fake = await startPaddleFake(KEY);
  t.teardown(() => fake.close());
  return { fake, paddle: new PaddlePayments({ apiKey: KEY, apiUrl: fake.url, prices }) };
}

/** A purchase of `quantity` bundles under `key` (this test's other charges are of one bundle). */
const purchase = (key: string, quantity: number) => paddlePurchase('tnt_pages', key, quantity);

t.test('the charge the retry looks for is on the second page: found, not billed again', async (t) => {
  const { fake, paddle } = await paddleAt(t);
  const ours = () => fake.charged().filter((c) => c.quantity === 3).length;
  fake.state.failChargeBilled = 1;
  await t.rejects(paddle.charge(purchase('pdl-pages-0001', 3)), 'Paddle billed the purchase and answered 500');
  t.equal(ours(), 1);
  fake.chargedElsewhere(31, [{ price_id: 'pri_conv500', quantity: 1 }]);

  const before = fake.calls.length;
  await paddle.charge(purchase('pdl-pages-0001', 3));
  t.equal(ours(), 1, 'the retry found the charge: Paddle billed the purchase once');
  const pages = fake.calls.slice(before).filter((c) => c.method === 'GET' && c.path.startsWith('/transactions?'));
  const afters = pages.map((c) => new URL(c.path, 'http://x').searchParams.get('after'));
  t.equal(afters.length, 2, 'the retry asked for two pages');
  t.match(afters, [null, /^txn_/], "the second asked of the adapter's own base URL, with the first page's cursor");
  t.equal(new URL(pages[1].path, 'http://x').searchParams.get('subscription_id'), 'sub_01', "the lookup's filters kept on the second page");
});

t.test('a lookup longer than the pages the adapter reads fails instead of billing again', async (t) => {
  const { fake, paddle } = await paddleAt(t);
  const ours = () => fake.charged().filter((c) => c.quantity === 3).length;
  fake.state.failChargeBilled = 1;
  await t.rejects(paddle.charge(purchase('pdl-pages-0002', 3)), 'Paddle billed the purchase and answered 500');
  fake.chargedElsewhere(20 * 30, [{ price_id: 'pri_conv500', quantity: 1 }]);

  await t.rejects(paddle.charge(purchase('pdl-pages-0002', 3)), /longer than 20 pages/, 'the retry fails: it cannot tell whether the charge was made');
  t.equal(ours(), 1, 'Paddle billed the purchase once');
  t.match(fake.state.sub.custom_data, { addon_purchase_pending: [{ key: 'pdl-pages-0002' }] }, 'the pending mark stays for a later retry');
});
