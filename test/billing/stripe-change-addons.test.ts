import t, { type Test } from 'tap';
import { failOnce } from '../helpers/pg-fault.js';
import { postStripeEvent, stripeService } from './stripe-env.js';
import { applyBillingEvent } from '../../pipelines/billing/apply-billing-event.stage.js';

// Add-on bundles bought with a plan change are charged at Stripe now, once: on an upgrade on the
// invoice the update makes, on a downgrade (nothing invoiced now) on an invoice of their own. Each
// attempt's own writes fail once after Stripe's call, and the client retries with the same key.
const { fake, h, webhookSecret: WHSEC } = await stripeService(t, 'change_addons');
const db = h.api.deps.db;
const tenant = await h.tenant();
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key: tenant.key, body, headers });
const updates = () => fake.calls.filter((c) => c.method === 'POST' && c.path === '/v1/subscriptions/sub_1');
/** Stripe's invoices that bill the add-on, with the quantity of its line. */
const addonInvoices = () =>
  fake.state.invoices
    .map((i) => ({ status: i.status, lines: (i.lines as { data: Array<{ price: string; quantity: number }> }).data }))
    .filter((i) => i.lines.some((l) => l.price === 'price_conv500'))
    .map((i) => ({ status: i.status, quantity: i.lines.find((l) => l.price === 'price_conv500')!.quantity, lines: i.lines.length }));
const units = async () => (await api('GET', '/v1/billing/subscription')).body.addons.assistant_conversations_500?.units ?? 0;

/** The change fails once at recording its bundles (after Stripe's call), then the client retries with the same key. */
async function changeWithRetry(t: Test, body: unknown, key: string) {
  const fault = await failOnce(db, {
    name: `fault_${key.replace(/-/g, '_')}`,
    table: 'billing_addon_purchases',
    on: 'INSERT',
    when: `NEW.tenant_id = '${tenant.id}'`,
  });
  t.teardown(() => fault.remove());
  t.equal((await api('POST', '/v1/billing/change-plan', body, { 'idempotency-key': key })).status, 500, 'the first attempt fails after Stripe made the change');
  t.equal(await fault.tried(), 1);
  const retry = await api('POST', '/v1/billing/change-plan', body, { 'idempotency-key': key });
  t.equal(retry.status, 200, 'the client retries with the same key');
  return retry;
}

t.before(async () => {
  const body = JSON.stringify({
    id: 'evt_created',
    object: 'event',
    type: 'customer.subscription.created',
    created: Math.floor(Date.now() / 1000),
    data: { object: { ...fake.state.subscription, metadata: { tenant_id: tenant.id, plan_code: 'growth' } } },
  });
  await postStripeEvent(h.api, WHSEC, body);
  await applyBillingEvent.run({ data: { provider: 'stripe', eventId: 'evt_created' }, deps: h.api.deps } as never);
});

t.test('upgrade with bundles: they are add_invoice_items of the invoice the update makes, charged once', async (t) => {
  const res = await changeWithRetry(t, { plan_code: 'scale', addons: [{ code: 'assistant_conversations_500', quantity: 2 }] }, 'chg-up-0001');
  t.equal(res.body.plan_code, 'scale');
  t.equal(await units(), 1000, 'the store has the bundles');
  for (const call of updates()) {
    t.match(call.form, { proration_behavior: 'always_invoice', 'add_invoice_items[0][price]': 'price_conv500', 'add_invoice_items[0][quantity]': '2' });
    t.equal(call.headers['idempotency-key'], 'chg-up-0001-change', 'the update carries a key from the request’s');
  }
  t.same(addonInvoices(), [{ status: 'paid', quantity: 2, lines: 2 }], 'one paid invoice: the plan’s proration and the bundles');
  t.same(fake.state.pending, [], 'nothing left for the renewal');
});

t.test('downgrade with bundles: the update invoices nothing now, the bundles get an invoice of their own, charged once', async (t) => {
  const before = updates().length;
  const res = await changeWithRetry(t, { plan_code: 'growth', addons: [{ code: 'assistant_conversations_500', quantity: 1 }] }, 'chg-down-0001');
  t.match(res.body, { plan_code: 'scale', pending_change: { plan_code: 'growth' } });
  t.equal(await units(), 1500);
  const calls = updates().slice(before);
  t.equal(calls.length, 2);
  for (const call of calls) {
    t.equal(call.form.proration_behavior, 'none');
    t.notOk(call.form['add_invoice_items[0][price]'], 'not added to the renewal’s invoice');
  }
  t.same(
    addonInvoices(),
    [
      { status: 'paid', quantity: 2, lines: 2 },
      { status: 'paid', quantity: 1, lines: 1 },
    ],
    'one more paid invoice, of the bundle alone',
  );
  t.same(fake.state.pending, [], 'nothing left for the renewal');
  const item = fake.calls.filter((c) => c.path === '/v1/invoiceitems');
  t.match(item.at(-1)!.form, { customer: 'cus_1', 'pricing[price]': 'price_conv500', quantity: '1' });
  t.same([...new Set(item.map((c) => c.headers['idempotency-key']))], ['chg-down-0001-change-addons-item-0']);
});
