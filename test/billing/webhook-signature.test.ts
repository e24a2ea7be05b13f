import t from 'tap';
import { createHmac } from 'node:crypto';
import { setup } from '../helpers/harness.js';

// Vectors are computed here with node:crypto directly, not with the code under test.
const STRIPE_SECRET = 'whsec_test_stripe_0123456789';
const PADDLE_SECRET = 'pdl_ntfset_test_0123456789';
const MOCK_SECRET = 'mock_whsec_test_0123456789';
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
const now = () => Math.floor(Date.now() / 1000);

const h = await setup({ STRIPE_WEBHOOK_SECRET: STRIPE_SECRET, PADDLE_WEBHOOK_SECRET: PADDLE_SECRET, MOCK_WEBHOOK_SECRET: MOCK_SECRET });
t.teardown(() => h.close());
const tenant = await h.tenant();

const stored = async () => Number((await h.api.deps.db('billing_events').count({ n: '*' }))[0].n);
const post = (provider: string, body: string, headers: Record<string, string>) =>
  h.api.call('POST', `/v1/billing/webhooks/${provider}`, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

function stripeBody(id: string) {
  return JSON.stringify({
    id,
    type: 'customer.subscription.updated',
    created: now(),
    data: {
      object: {
        id: 'sub_1',
        customer: 'cus_1',
        status: 'active',
        cancel_at_period_end: false,
        current_period_start: now(),
        current_period_end: now() + 30 * 86400,
        metadata: { tenant_id: tenant.id, plan_code: 'growth' },
        items: { data: [{ price: { id: 'price_g', recurring: { interval: 'month' } } }] },
      },
    },
  });
}
const paddleBody = (id: string) =>
  JSON.stringify({
    event_id: id,
    event_type: 'subscription.updated',
    occurred_at: new Date().toISOString(),
    data: {
      id: 'sub_p1',
      status: 'active',
      customer_id: 'ctm_1',
      custom_data: { tenant_id: tenant.id, plan_code: 'starter' },
      items: [{ price: { id: 'pri_1', billing_cycle: { interval: 'month' } } }],
    },
  });
const mockBody = (id: string) => JSON.stringify({ id, type: 'something.new', created: now(), data: { tenant_id: tenant.id } });

const schemes = [
  {
    provider: 'stripe',
    header: 'stripe-signature',
    body: stripeBody,
    sign: (body: string, secret: string, ts: number) => `t=${ts},v1=${hmac(secret, `${ts}.${body}`)}`,
    secret: STRIPE_SECRET,
  },
  {
    provider: 'paddle',
    header: 'paddle-signature',
    body: paddleBody,
    sign: (body: string, secret: string, ts: number) => `ts=${ts};h1=${hmac(secret, `${ts}:${body}`)}`,
    secret: PADDLE_SECRET,
  },
  {
    provider: 'mock',
    header: 'mock-signature',
    body: mockBody,
    sign: (body: string, secret: string, ts: number) => `t=${ts},v1=${hmac(secret, `${ts}.${body}`)}`,
    secret: MOCK_SECRET,
  },
];

for (const s of schemes) {
  t.test(`${s.provider}: forged and stale deliveries are refused, nothing stored`, async (t) => {
    const before = await stored();
    const body = s.body(`evt_forged_${s.provider}`);
    // Headers are signed just before each request; "ahead" is far enough out that a slow machine cannot bring it inside the tolerance.
    const cases: Array<[string, () => Record<string, string>, string, string]> = [
      ['wrong secret', () => ({ [s.header]: s.sign(body, 'not-the-secret', now()) }), body, 'signature_invalid'],
      [
        'one byte changed',
        () => ({ [s.header]: s.sign(body, s.secret, now()) }),
        body.replace('"active"', '"activf"').replace('something', 'somethinh'),
        'signature_invalid',
      ],
      ['timestamp 301 s old', () => ({ [s.header]: s.sign(body, s.secret, now() - 301) }), body, 'signature_stale'],
      ['timestamp 360 s ahead', () => ({ [s.header]: s.sign(body, s.secret, now() + 360) }), body, 'signature_stale'],
      ['missing header', () => ({}), body, 'signature_missing'],
      ['garbage header', () => ({ [s.header]: 'v1=abc' }), body, 'signature_invalid'],
    ];
    for (const [name, headers, sent, code] of cases) {
      const res = await post(s.provider, sent, headers());
      t.equal(res.status, 400, `${name}: 400`);
      t.equal(res.body?.error?.code, code, `${name}: ${code}`);
    }
    t.equal(await stored(), before, 'no forged event stored');
  });

  t.test(`${s.provider}: a valid delivery is stored once; its replay is acknowledged and not stored again`, async (t) => {
    const body = s.body(`evt_ok_${s.provider}`);
    const headers = { [s.header]: s.sign(body, s.secret, now()) };
    const first = await post(s.provider, body, headers);
    t.equal(first.status, 200);
    t.same(first.body, { received: true, duplicate: false });
    const replay = await post(s.provider, body, headers);
    t.equal(replay.status, 200);
    t.same(replay.body, { received: true, duplicate: true });
    const rows = await h.api.deps.db('billing_events').where({ provider: s.provider, event_id: `evt_ok_${s.provider}` });
    t.equal(rows.length, 1);
  });
}

t.test('stripe: any v1 may match (secret rotation)', async (t) => {
  const body = stripeBody('evt_rotation');
  const ts = now();
  const res = await post('stripe', body, {
    'stripe-signature': `t=${ts},v1=${hmac('old-secret', `${ts}.${body}`)},v1=${hmac(STRIPE_SECRET, `${ts}.${body}`)}`,
  });
  t.equal(res.status, 200);
});

t.test('a provider without a configured secret answers 404', async (t) => {
  const h2 = await setup();
  t.teardown(() => h2.close());
  const res = await h2.api.call('POST', '/v1/billing/webhooks/stripe', { rawBody: '{}', headers: { 'content-type': 'application/json' } });
  t.equal(res.status, 404);
  t.equal(res.body.error.code, 'webhook_not_configured');
});
