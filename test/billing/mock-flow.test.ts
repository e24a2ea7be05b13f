import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { call } from '../helpers/harness.js';
import { endBillingPeriods } from '../../pipelines/billing/end-billing-periods.stage.js';

// Everything below goes through HTTP: the API, the mock provider's pages, its signed webhooks, the apply stage in a real worker.
const { h, workers } = await setupWithWorkers({ BILLING_DEFAULT_PLAN: 'free' });
const tenant = await h.tenant();
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key: tenant.key, body, headers });
const page = (url: string, method = 'GET') => call('', method, url);
const status = async () => (await api('GET', '/v1/billing/subscription')).body;

t.test('plans and add-ons are public', async (t) => {
  const plans = await h.api.call('GET', '/v1/billing/plans');
  t.equal(plans.status, 200);
  t.ok(plans.body.find((p: { code: string }) => p.code === 'enterprise').searches_limit === null);
  t.equal((await h.api.call('GET', '/v1/billing/addons')).body[0].kind, 'assistant_conversations');
});

t.test('without a subscription: free plan, add-ons and change refused with 409', async (t) => {
  t.match(await status(), { plan_code: 'free', status: 'active', provider: 'manual' });
  t.equal((await api('POST', '/v1/billing/addons/purchase', { code: 'assistant_conversations_500' })).status, 409);
  t.equal((await api('POST', '/v1/billing/change-plan', { plan_code: 'scale' })).status, 409);
  const usage = await api('GET', '/v1/usage');
  t.equal(usage.body.metrics.find((m: { metric: string }) => m.metric === 'search').limit, 10_000);
});

t.test('checkout -> pay on the mock page -> webhook -> active with the plan limits', async (t) => {
  const checkout = await api('POST', '/v1/billing/checkout', { plan_code: 'growth', interval: 'month' });
  t.equal(checkout.status, 200);
  const form = await page(checkout.body.url);
  t.equal(form.status, 200);
  t.match(form.body, /Pay now/);
  t.equal((await page(`${checkout.body.url}/pay`, 'POST')).status, 200);
  const sub = await eventually(async () => {
    const s = await status();
    return s.status === 'active' && s.provider === 'mock' ? s : null;
  });
  t.equal(sub.plan_code, 'growth');
  t.equal(sub.provider, 'mock');
  t.ok(sub.current_period_end);
  const search = await eventually(async () => {
    const r = await api('GET', '/v1/search?q=phone');
    return /limit=250000/.test(r.headers.get('x-service-usage') ?? '') ? r : null;
  });
  t.match(search.headers.get('x-service-usage'), /^searches=\d+; limit=250000; billed=1; period=\d{4}-\d{2}$/);
  t.equal((await api('GET', '/v1/usage')).body.plan_code, 'growth');
  t.equal((await api('POST', '/v1/billing/checkout', { plan_code: 'scale' })).status, 409, 'a second checkout is refused');
});

t.test('add-on purchase and its balance', async (t) => {
  const bought = await api(
    'POST',
    '/v1/billing/addons/purchase',
    { code: 'assistant_conversations_500', quantity: 2 },
    { 'idempotency-key': 'addon-buy-0001' },
  );
  t.equal(bought.status, 200);
  t.same(bought.body.addons.assistant_conversations_500, {
    units: 1000,
    used: 0,
    remaining: 1000,
    period_end: bought.body.addons.assistant_conversations_500.period_end,
  });
  const again = await api('POST', '/v1/billing/addons/purchase', { code: 'assistant_conversations_500', quantity: 2 }, { 'idempotency-key': 'addon-buy-0001' });
  t.equal(again.body.addons.assistant_conversations_500.units, 1000, 'a retry with the same key buys nothing more');
  t.equal((await api('POST', '/v1/billing/addons/purchase', { code: 'nope' })).status, 404);
});

t.test('failed renewal -> past_due; a paid renewal -> active again', async (t) => {
  const portal = await api('GET', '/v1/billing/portal');
  t.equal(portal.status, 200);
  const u = new URL(portal.body.url);
  const action = (a: string) => `${u.origin}${u.pathname}/${a}${u.search}`;
  t.equal((await page(portal.body.url)).status, 200);
  t.equal((await page(action('renew-fail'), 'POST')).status, 200);
  await eventually(async () => (await status()).status === 'past_due');
  t.equal((await api('POST', '/v1/billing/addons/purchase', { code: 'assistant_conversations_500' })).status, 409, 'no add-ons while past_due');
  t.equal((await page(action('renew'), 'POST')).status, 200);
  await eventually(async () => (await status()).status === 'active');
  const forged = await call('', 'POST', `${u.origin}${u.pathname}/cancel-now?expires=${u.searchParams.get('expires')}&token=${'0'.repeat(64)}`);
  t.equal(forged.status, 403, 'a portal link with a wrong token does nothing');
  const invoices = await api('GET', '/v1/billing/invoices');
  t.ok(invoices.body.length >= 4, 'checkout, add-on, failed and paid renewal invoices');
});

t.test('upgrade mid-period is charged now; cancel at period end keeps the status until the period ends', async (t) => {
  const up = await api('POST', '/v1/billing/change-plan', { plan_code: 'scale', interval: 'month' });
  t.equal(up.status, 200);
  t.equal(up.body.plan_code, 'scale');
  const cancel = await api('POST', '/v1/billing/cancel', { at_period_end: true, reason: 'testing' });
  t.equal(cancel.status, 200);
  t.equal(cancel.body.status, 'active');
  t.equal(cancel.body.cancel_at_period_end, true);
  // The period ends: the scheduled stage ends it.
  await h.api.deps
    .db('billing_subscriptions')
    .where({ tenant_id: tenant.id })
    .update({ current_period_end: new Date(Date.now() - 1000) });
  await workers.deps.queues.enqueue(endBillingPeriods, { run: 'test-end' });
  await eventually(async () => (await status()).status === 'canceled');
  const usage = await eventually(async () => {
    const r = await api('GET', '/v1/usage');
    return r.body.plan_code === 'free' ? r : null;
  });
  t.equal(usage.body.plan_code, 'free', 'back on the free plan limits');
});
