import t, { type Test } from 'tap';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { setup, type Reply } from '../helpers/harness.js';
import { lockWaiters } from '../helpers/pg-fault.js';
import { waitFor } from '../helpers/wait.js';
import { startStripeFake } from '../billing/stripe-fake.js';
import { stripeEnv } from '../billing/stripe-env.js';
import { stripeStore } from '../billing/stripe-store.js';
import { applyBillingEvent } from '../../pipelines/billing/apply-billing-event.stage.js';

// A payment provider that takes a change's request and never answers, while the change holds a
// pooled connection and its store's lock: each request gives up at BILLING_PROVIDER_TIMEOUT_MS,
// the change answers 503 payment_provider_unavailable, its transaction rolls back (nothing
// written, the row unlocked, no connection left in a transaction), and the retry with the same
// Idempotency-Key runs once the provider answers again.
const TIMEOUT = { BILLING_PROVIDER_TIMEOUT_MS: '200' };
const change = { plan_code: 'scale', addons: [{ code: 'assistant_conversations_500', quantity: 1 }] };

/** The change refused as the provider's, and nothing of it left in Postgres. */
async function rolledBack(t: Test, db: Knex, tenantId: string, res: Reply) {
  t.equal(res.status, 503);
  t.equal(res.body.error?.code, 'payment_provider_unavailable');
  t.ok(Number(res.headers.get('retry-after')) > 0, 'retryable, with Retry-After');
  t.match(await db('billing_subscriptions').where({ tenant_id: tenantId }).first(), { plan_code: 'growth' }, 'the plan is unchanged');
  t.equal(Number((await db('billing_addon_purchases').where({ tenant_id: tenantId }).count({ n: '*' }))[0].n), 0, 'no bundles recorded');
  // The row is free: a lock that refuses to wait gets it.
  await db.transaction((trx) => trx('billing_subscriptions').where({ tenant_id: tenantId }).forUpdate().noWait().first());
  t.equal(await lockWaiters(db), 0);
  const { rows } = await db.raw(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`);
  t.equal(rows[0].n, 0, 'no connection left in a transaction');
}

t.test('Stripe never answers', async (t) => {
  const KEY = 'sk_test_fake_hung_0001';
  const WHSEC = 'whsec_hung_0001_abcdef';
  const fake = await startStripeFake(KEY);
  const h = await setup({ ...stripeEnv(fake.url, KEY, WHSEC), ...TIMEOUT });
  t.teardown(async () => {
    await h.close();
    await fake.close();
  });
  const s = await stripeStore(h, fake, WHSEC, 'hung');
  fake.state.hang = true;
  const res = await s.api('POST', '/v1/billing/change-plan', change, { 'idempotency-key': 'hung-stripe-0001' });
  t.ok(fake.calls.length > 0, 'Stripe was called');
  await waitFor(() => fake.state.gaveUp === fake.calls.length, 10_000, 'every request given up by the client');
  await rolledBack(t, h.api.deps.db, s.tenant.id, res);

  fake.state.hang = false;
  const retry = await s.api('POST', '/v1/billing/change-plan', change, { 'idempotency-key': 'hung-stripe-0001' });
  t.match(retry, { status: 200, body: { plan_code: 'scale' } }, 'the retry runs once Stripe answers');
});

t.test('Paddle never answers', async (t) => {
  const KEY = 'pdl_apikey_hung_0123456789';
  const SECRET = 'pdl_ntfset_hung_0123';
  let gaveUp = 0;
  const paths: string[] = [];
  // Reads each request and never answers: no Paddle shape is needed.
  const server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    res.on('close', () => gaveUp++);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const h = await setup({
    BILLING_PROVIDER: 'paddle',
    PADDLE_API_KEY: KEY,
    PADDLE_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    PADDLE_WEBHOOK_SECRET: SECRET,
    PADDLE_PRICES: 'growth:month=pri_growth_m,scale:month=pri_scale_m,addon:assistant_conversations_500=pri_conv500',
    ...TIMEOUT,
  });
  t.teardown(async () => {
    await h.close();
    server.closeAllConnections();
    server.close();
  });
  const tenant = await h.tenant();
  const now = new Date();
  const body = JSON.stringify({
    event_id: 'evt_hung_01',
    event_type: 'subscription.created',
    occurred_at: now.toISOString(),
    data: {
      id: 'sub_hung',
      status: 'active',
      customer_id: 'ctm_hung',
      custom_data: { tenant_id: tenant.id, plan_code: 'growth' },
      scheduled_change: null,
      current_billing_period: { starts_at: now.toISOString(), ends_at: new Date(now.getTime() + 30 * 86400_000).toISOString() },
      billing_cycle: { interval: 'month', frequency: 1 },
      items: [{ price: { id: 'pri_growth_m' } }],
    },
  });
  const ts = Math.floor(Date.now() / 1000);
  const h1 = createHmac('sha256', SECRET).update(`${ts}:${body}`).digest('hex');
  const hook = await h.api.call('POST', '/v1/billing/webhooks/paddle', {
    rawBody: body,
    headers: { 'content-type': 'application/json', 'paddle-signature': `ts=${ts};h1=${h1}` },
  });
  t.equal(hook.status, 200);
  await applyBillingEvent.run({ data: { provider: 'paddle', eventId: 'evt_hung_01' }, deps: h.api.deps } as never);

  const res = await h.api.call('POST', '/v1/billing/change-plan', { key: tenant.key, body: change, headers: { 'idempotency-key': 'hung-paddle-0001' } });
  t.ok(paths.length > 0, 'Paddle was called');
  await waitFor(() => gaveUp === paths.length, 10_000, 'every request given up by the client');
  await rolledBack(t, h.api.deps.db, tenant.id, res);
});
