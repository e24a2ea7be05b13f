import t from 'tap';
import { postStripeEvent, stripeService } from './stripe-env.js';
import { applyBillingEvent } from '../../pipelines/billing/apply-billing-event.stage.js';
import { reconcileBilling } from '../../pipelines/billing/reconcile-billing.stage.js';

const { fake, h, webhookSecret: WHSEC } = await stripeService(t, 'adapter');
const tenant = await h.tenant();
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key: tenant.key, body, headers });
const stage = <T>(s: { run(ctx: never): Promise<unknown> }, data: T) => s.run({ data, deps: h.api.deps } as never);
const last = (path: string) => [...fake.calls].reverse().find((c) => c.path.startsWith(path))!;

t.test('checkout: a Checkout Session in subscription mode with the tenant in metadata', async (t) => {
  const res = await api('POST', '/v1/billing/checkout', { plan_code: 'growth', addons: [{ code: 'assistant_conversations_500', quantity: 1 }] });
  t.equal(res.status, 200);
  t.equal(res.body.url, 'https://checkout.stripe.test/c/cs_1');
  const call = last('/v1/checkout/sessions');
  t.match(call.form, {
    mode: 'subscription',
    'line_items[0][price]': 'price_growth_m',
    'line_items[0][quantity]': '1',
    'line_items[1][price]': 'price_conv500',
    'subscription_data[metadata][tenant_id]': tenant.id,
    'subscription_data[metadata][plan_code]': 'growth',
    client_reference_id: tenant.id,
  });
});

t.test('a signed customer.subscription.created webhook makes the subscription active', async (t) => {
  const body = JSON.stringify({
    id: 'evt_created',
    object: 'event',
    type: 'customer.subscription.created',
    created: Math.floor(Date.now() / 1000),
    data: { object: { ...fake.state.subscription, metadata: { tenant_id: tenant.id, plan_code: 'growth' } } },
  });
  const res = await postStripeEvent(h.api, WHSEC, body);
  t.equal(res.status, 200);
  await stage(applyBillingEvent, { provider: 'stripe', eventId: 'evt_created' });
  const sub = (await api('GET', '/v1/billing/subscription')).body;
  t.match(sub, { plan_code: 'growth', status: 'active', provider: 'stripe', interval: 'month' });
  t.ok(sub.current_period_end);
});

t.test('change plan: a subscription update with the new price, prorated and invoiced now', async (t) => {
  const res = await api('POST', '/v1/billing/change-plan', { plan_code: 'scale' });
  t.equal(res.status, 200);
  t.equal(res.body.plan_code, 'scale');
  t.match(last('/v1/subscriptions/sub_1').form, {
    'items[0][id]': 'si_1',
    'items[0][price]': 'price_scale_m',
    proration_behavior: 'always_invoice',
    'metadata[plan_code]': 'scale',
  });
});

t.test('add-on purchase: invoice item, invoice, pay, each with an idempotency key', async (t) => {
  fake.state.failNext429 = 1;
  const res = await api(
    'POST',
    '/v1/billing/addons/purchase',
    { code: 'assistant_conversations_500', quantity: 1 },
    { 'idempotency-key': 'stripe-addon-0001' },
  );
  t.equal(res.status, 200);
  t.equal(res.body.addons.assistant_conversations_500.units, 500);
  const item = last('/v1/invoiceitems');
  t.match(item.form, { customer: 'cus_1', amount: '1900', currency: 'usd' });
  t.equal(item.headers['idempotency-key'], 'stripe-addon-0001-item');
  t.ok(fake.calls.filter((c) => c.path === '/v1/invoiceitems').length >= 2, 'the 429 was retried by the SDK');
  t.ok(last('/v1/invoices/in_2/pay'), 'its own invoice (in_1 is the plan change’s proration)');
});

t.test('invoices and portal come from Stripe', async (t) => {
  const inv = await api('GET', '/v1/billing/invoices');
  t.equal(inv.status, 200);
  t.match(inv.body[0], { id: 'in_2', status: 'paid', currency: 'USD', total_minor: 1900, tax_minor: 0, hosted_url: 'https://invoice.stripe.test/2' });
  t.ok(inv.body[0].paid_at);
  t.equal((await api('GET', '/v1/billing/portal')).body.url, 'https://billing.stripe.test/p/cus_1');
});

t.test('cancel at period end; the daily reconcile takes the provider state when it differs', async (t) => {
  const res = await api('POST', '/v1/billing/cancel', { at_period_end: true });
  t.equal(res.body.cancel_at_period_end, true);
  t.match(last('/v1/subscriptions/sub_1').form, { cancel_at_period_end: 'true' });
  fake.state.subscription.status = 'unpaid';
  await stage(reconcileBilling, { unappliedAfterMs: 0 });
  const row = await h.api.deps.db('billing_subscriptions').where({ tenant_id: tenant.id }).first();
  t.equal(row.provider_status, 'unpaid');
  t.equal(row.status, 'past_due', 'Stripe unpaid is our past_due');
});
