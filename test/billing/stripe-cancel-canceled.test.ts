import t from 'tap';
import { stripeService } from './stripe-env.js';
import { stripeStore } from './stripe-store.js';

// A store whose subscription Stripe has canceled already (canceled in Stripe's dashboard, or by
// dunning) before that event reached us: Stripe refuses a second cancel (404 resource_missing) and
// any update (400). The store's cancel still answers 200 and leaves it canceled, now.
const { fake, h, webhookSecret: WHSEC } = await stripeService(t, 'cancel_canceled');
const atEnd = await stripeStore(h, fake, WHSEC, 'atend');
const now = await stripeStore(h, fake, WHSEC, 'now');
const bundle = (s: typeof atEnd, key: string) =>
  s.api('POST', '/v1/billing/addons/purchase', { code: 'assistant_conversations_500', quantity: 1 }, { 'idempotency-key': key });

t.test('cancel at period end of a subscription Stripe has canceled: canceled now, its bundles end', async (t) => {
  t.equal((await bundle(atEnd, 'cancel-canceled-b1')).status, 200);
  fake.state.subscription.status = 'canceled';
  const res = await atEnd.api('POST', '/v1/billing/cancel', { at_period_end: true });
  t.equal(res.status, 200, `answered (${JSON.stringify(res.body)})`);
  t.match(res.body, { status: 'canceled', cancel_at_period_end: false });
  t.match(await atEnd.row(), { status: 'canceled' }, 'the row says canceled');
  t.equal((await atEnd.api('GET', '/v1/billing/subscription')).body.addons.assistant_conversations_500?.units ?? 0, 0, 'its bundles ended');
});

t.test('cancel now of a subscription Stripe has canceled: canceled', async (t) => {
  const res = await now.api('POST', '/v1/billing/cancel', { at_period_end: false });
  t.equal(res.status, 200, `answered (${JSON.stringify(res.body)})`);
  t.match(res.body, { status: 'canceled' });
  t.match(await now.row(), { status: 'canceled' });
});
