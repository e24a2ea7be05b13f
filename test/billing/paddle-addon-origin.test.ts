import t from 'tap';
import { createHmac } from 'node:crypto';
import { setup } from '../helpers/harness.js';
import { applyBillingEvent } from '../../pipelines/billing/apply-billing-event.stage.js';

// Paddle copies a subscription's custom_data to the transactions it makes for it (renewals, one-time charges, plan
// changes). The checkout's custom_data holds the bundles bought with it: only the checkout's own transaction grants them.
const SECRET = 'pdl_ntfset_origin_0123';
const h = await setup({
  BILLING_PROVIDER: 'paddle',
  PADDLE_API_KEY: 'pdl_apikey_test_0123456789',
  PADDLE_API_URL: 'http://127.0.0.1:9',
  PADDLE_WEBHOOK_SECRET: SECRET,
  PADDLE_PRICES: 'growth:month=pri_growth_m,addon:assistant_conversations_500=pri_conv500',
});
t.teardown(() => h.close());
const tenant = await h.tenant();
/** The conversation units the store's bundle purchases hold. */
const units = async () =>
  (await h.api.deps.db('billing_addon_purchases').where({ tenant_id: tenant.id, code: 'assistant_conversations_500' })).reduce((n, r) => n + r.units, 0);

/** A signed transaction.completed of `origin`, carrying the checkout's custom_data; applied as its job would. */
async function completed(eventId: string, txn: string, origin: string) {
  const body = JSON.stringify({
    event_id: eventId,
    event_type: 'transaction.completed',
    occurred_at: new Date().toISOString(),
    data: {
      id: txn,
      origin,
      status: 'completed',
      subscription_id: origin === 'web' ? null : 'sub_01',
      custom_data: { tenant_id: tenant.id, plan_code: 'growth', addons: [{ code: 'assistant_conversations_500', quantity: 2 }] },
    },
  });
  const ts = Math.floor(Date.now() / 1000);
  const h1 = createHmac('sha256', SECRET).update(`${ts}:${body}`).digest('hex');
  const res = await h.api.call('POST', '/v1/billing/webhooks/paddle', {
    rawBody: body,
    headers: { 'content-type': 'application/json', 'paddle-signature': `ts=${ts};h1=${h1}` },
  });
  t.equal(res.status, 200, `${eventId} accepted`);
  await applyBillingEvent.run({ data: { provider: 'paddle', eventId }, deps: h.api.deps } as never);
}

t.test("the checkout's transaction grants its bundles; the subscription's later transactions do not grant them again", async (t) => {
  await completed('ntf_checkout', 'txn_checkout', 'web');
  t.equal(await units(), 1000, 'two bundles of 500 from the checkout');
  await completed('ntf_renewal', 'txn_renewal', 'subscription_recurring');
  await completed('ntf_charge', 'txn_charge', 'subscription_charge');
  await completed('ntf_update', 'txn_update', 'subscription_update');
  t.equal(await units(), 1000, 'a renewal, a one-time charge and a plan change carrying the same custom_data grant nothing');
  await completed('ntf_api', 'txn_api', 'api');
  t.equal(await units(), 2000, 'a checkout transaction made through the API (origin api) grants its bundles');
});
