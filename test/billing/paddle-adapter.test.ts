import t from 'tap';
import { createHmac } from 'node:crypto';
import { setup } from '../helpers/harness.js';
import { failOnce } from '../helpers/pg-fault.js';
import { startPaddleFake } from './paddle-fake.js';
import { applyBillingEvent } from '../../pipelines/billing/apply-billing-event.stage.js';
import { reconcileBilling } from '../../pipelines/billing/reconcile-billing.stage.js';

const KEY = 'pdl_apikey_test_0123456789';
const SECRET = 'pdl_ntfset_adapter_0123';
const fake = await startPaddleFake(KEY);
const { calls, state, sub } = { ...fake, sub: fake.state.sub };
const h = await setup({
  BILLING_PROVIDER: 'paddle',
  PADDLE_API_KEY: KEY,
  PADDLE_API_URL: fake.url,
  PADDLE_WEBHOOK_SECRET: SECRET,
  PADDLE_PRICES: 'growth:month=pri_growth_m,scale:month=pri_scale_m,addon:assistant_conversations_500=pri_conv500',
});
t.teardown(async () => {
  await h.close();
  await fake.close();
});
const tenant = await h.tenant();
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key: tenant.key, body, headers });
const stage = <T>(s: { run(ctx: never): Promise<unknown> }, data: T) => s.run({ data, deps: h.api.deps } as never);
const last = (method: string, path: string) => [...calls].reverse().find((c) => c.method === method && c.path.startsWith(path))!;

t.test('checkout is a transaction with the tenant in custom_data', async (t) => {
  state.throttleNext = 1;
  const res = await api('POST', '/v1/billing/checkout', { plan_code: 'growth' });
  t.equal(res.status, 200);
  t.equal(res.body.url, 'https://pay.paddle.test/checkout?_ptxn=txn_01');
  t.match(last('POST', '/transactions').body, {
    items: [{ price_id: 'pri_growth_m', quantity: 1 }],
    custom_data: { tenant_id: tenant.id, plan_code: 'growth' },
  });
  t.equal(calls.filter((c) => c.path === '/transactions' && c.method === 'POST').length, 2, 'the 429 was retried');
});

t.test('subscription.created notification (ts;h1 signature) makes it active; the rest goes through the API', async (t) => {
  const body = JSON.stringify({
    event_id: 'evt_01',
    event_type: 'subscription.created',
    occurred_at: new Date().toISOString(),
    data: { ...sub, custom_data: { tenant_id: tenant.id, plan_code: 'growth' } },
  });
  const ts = Math.floor(Date.now() / 1000);
  const h1 = createHmac('sha256', SECRET).update(`${ts}:${body}`).digest('hex');
  t.equal(
    (
      await h.api.call('POST', '/v1/billing/webhooks/paddle', {
        rawBody: body,
        headers: { 'content-type': 'application/json', 'paddle-signature': `ts=${ts};h1=${h1}` },
      })
    ).status,
    200,
  );
  await stage(applyBillingEvent, { provider: 'paddle', eventId: 'evt_01' });
  t.match((await api('GET', '/v1/billing/subscription')).body, { plan_code: 'growth', status: 'active', provider: 'paddle' });

  const up = await api('POST', '/v1/billing/change-plan', { plan_code: 'scale' });
  t.equal(up.body.plan_code, 'scale');
  t.match(last('PATCH', '/subscriptions/sub_01').body, { items: [{ price_id: 'pri_scale_m', quantity: 1 }], proration_billing_mode: 'prorated_immediately' });

  const addon = await api(
    'POST',
    '/v1/billing/addons/purchase',
    { code: 'assistant_conversations_500', quantity: 3 },
    { 'idempotency-key': 'paddle-addon-01' },
  );
  t.equal(addon.body.addons.assistant_conversations_500.units, 1500);
  t.match(last('POST', '/subscriptions/sub_01/charge').body, { effective_from: 'immediately', items: [{ price_id: 'pri_conv500', quantity: 3 }] });

  t.match((await api('GET', '/v1/billing/invoices')).body, [
    { id: 'inv_02', status: 'completed', currency: 'USD', total_minor: 5700 },
    { id: 'inv_01', status: 'completed', currency: 'USD', total_minor: 9900 },
  ]);
  t.equal((await api('GET', '/v1/billing/portal')).body.url, 'https://customer-portal.paddle.test/cpl_01');

  const cancel = await api('POST', '/v1/billing/cancel', { at_period_end: true });
  t.equal(cancel.body.cancel_at_period_end, true);
  t.match(last('POST', '/subscriptions/sub_01/cancel').body, { effective_from: 'next_billing_period' });

  sub.status = 'past_due';
  await stage(reconcileBilling, { unappliedAfterMs: 0 });
  t.equal((await api('GET', '/v1/billing/subscription')).body.status, 'past_due', "the daily reconcile takes Paddle's state");
});

t.test('a plan change with bundles charges them now with a one-time charge, once across the client retry', async (t) => {
  Object.assign(sub, { status: 'active', scheduled_change: null });
  await stage(reconcileBilling, { unappliedAfterMs: 0 });
  t.match((await api('GET', '/v1/billing/subscription')).body, { plan_code: 'scale', status: 'active' });
  const before = fake.charged().length;
  const units = (await api('GET', '/v1/billing/subscription')).body.addons.assistant_conversations_500.units;
  const fault = await failOnce(h.api.deps.db, {
    name: 'fault_paddle_change_addons',
    table: 'billing_addon_purchases',
    on: 'INSERT',
    when: `NEW.tenant_id = '${tenant.id}'`,
  });
  t.teardown(() => fault.remove());
  const change = { plan_code: 'growth', addons: [{ code: 'assistant_conversations_500', quantity: 2 }] };
  const headers = { 'idempotency-key': 'paddle-change-0001' };
  t.equal((await api('POST', '/v1/billing/change-plan', change, headers)).status, 500, 'our writes fail after Paddle’s calls');
  const retry = await api('POST', '/v1/billing/change-plan', change, headers);
  t.equal(retry.status, 200, 'the client retries with the same key');
  t.match(retry.body, { pending_change: { plan_code: 'growth' } });
  t.equal(retry.body.addons.assistant_conversations_500.units, units + 1000);
  t.match(last('PATCH', '/subscriptions/sub_01').body, { custom_data: { tenant_id: tenant.id, addon_charge_done: [{ key: 'paddle-change-0001' }] } });
  t.match(calls.filter((c) => c.path === '/subscriptions/sub_01' && c.method === 'PATCH' && c.body.items).at(-1)!.body, {
    items: [{ price_id: 'pri_growth_m', quantity: 1 }],
    proration_billing_mode: 'do_not_bill',
  });
  t.same(fake.charged().slice(before), [{ price_id: 'pri_conv500', quantity: 2 }], 'the bundles billed now, once');
});

t.test('a cancel of a subscription Paddle has canceled already (its event not applied yet): 200, canceled now', async (t) => {
  sub.status = 'canceled';
  t.teardown(() => void (sub.status = 'active'));
  const res = await api('POST', '/v1/billing/cancel', { at_period_end: true });
  t.equal(res.status, 200, `answered (${JSON.stringify(res.body)})`);
  t.match(res.body, { status: 'canceled', cancel_at_period_end: false });
  t.equal(res.body.addons.assistant_conversations_500?.units ?? 0, 0, 'its bundles ended');
  t.match(last('GET', '/subscriptions/sub_01'), { method: 'GET' }, 'Paddle asked how the subscription stands');
});
