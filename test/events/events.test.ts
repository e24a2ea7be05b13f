import t from 'tap';
import { setup } from '../helpers/harness.js';

const h = await setup();
t.teardown(() => h.close());
const a = await h.tenant('events store');
const deps = h.api.deps;
const send = (events: unknown, key = a.key, headers: Record<string, string> = {}) => h.api.call('POST', '/v1/events', { key, body: { events }, headers });
const stored = async (tenantId = a.id, session?: string) => {
  await deps.events.flush();
  return deps.repos.events.list(tenantId, { session });
};
const click = (extra: Record<string, unknown> = {}) => ({
  type: 'search_click',
  session: 'sess-1',
  search_id: 'srch_abc',
  product_id: 'p1',
  position: 3,
  ...extra,
});
const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

/** [field, code] of every detail of a 400. */
const problems = (res: { status: number; body: any }) => {
  if (res.status !== 400) return res.status;
  return res.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code]);
};

t.test('each type stores its fields; timestamp defaults to now', async (t) => {
  const before = Date.now();
  const res = await send([
    click({ session: 'kinds' }),
    { type: 'view', session: 'kinds', product_id: 'p2', timestamp: minutes(-60) },
    { type: 'add_to_cart', session: 'kinds', product_id: 'p2', quantity: 2, value: 39.8, currency: 'EUR', search_id: 'srch_abc' },
    { type: 'purchase', session: 'kinds', value: 120, currency: 'USD' },
    { type: 'purchase', session: 'kinds', product_id: 'p2', quantity: 1, value: 19.9, currency: 'USD', event_id: null, search_id: null },
  ]);
  t.equal(res.status, 202);
  t.same(res.body, { accepted: 5 });
  const rows = await stored(a.id, 'kinds');
  t.equal(rows.length, 5);
  const byType = (type: string) => rows.filter((r) => r.type === type);
  t.match(byType('search_click')[0], { search_id: 'srch_abc', product_id: 'p1', position: 3, client_event_id: null });
  t.match(byType('add_to_cart')[0], { quantity: 2, value: 39.8, currency: 'EUR', search_id: 'srch_abc' });
  t.equal(byType('purchase').length, 2, 'a purchase may come without product_id');
  const view = byType('view')[0];
  t.ok(Math.abs(new Date(view.occurred_at).getTime() - (before - 3600_000)) < 5000, 'given timestamp kept');
  t.ok(new Date(byType('search_click')[0].occurred_at).getTime() >= before - 1000, 'default now');
});

t.test('validation: one bad event rejects the whole call with details at events.<i>.<field>', async (t) => {
  const cases: Array<[string, unknown, unknown]> = [
    ['empty list', [], [['events', 'too_short']]],
    ['unknown type', [{ type: 'hover', session: 's' }], [['events.0.type', 'invalid_value']]],
    ['session required', [{ type: 'view', product_id: 'p' }], [['events.0.session', 'required']]],
    ['session max 64', [{ type: 'view', session: 'x'.repeat(65), product_id: 'p' }], [['events.0.session', 'too_long']]],
    ['session min 1', [{ type: 'view', session: '', product_id: 'p' }], [['events.0.session', 'too_short']]],
    [
      'search_click needs search_id, product_id, position',
      [{ type: 'search_click', session: 's' }],
      [
        ['events.0.search_id', 'required'],
        ['events.0.product_id', 'required'],
        ['events.0.position', 'required'],
      ],
    ],
    ['view needs product_id', [{ type: 'view', session: 's' }], [['events.0.product_id', 'required']]],
    ['add_to_cart needs product_id', [{ type: 'add_to_cart', session: 's' }], [['events.0.product_id', 'required']]],
    ['product_id max 128', [{ type: 'view', session: 's', product_id: 'p'.repeat(129) }], [['events.0.product_id', 'too_long']]],
    ['event_id max 64', [{ type: 'view', session: 's', product_id: 'p', event_id: 'e'.repeat(65) }], [['events.0.event_id', 'too_long']]],
    ['position >= 1', [click({ position: 0 })], [['events.0.position', 'too_small']]],
    ['position is an integer', [click({ position: 1.5 })], [['events.0.position', 'invalid_type']]],
    ['quantity >= 1', [{ type: 'add_to_cart', session: 's', product_id: 'p', quantity: 0 }], [['events.0.quantity', 'too_small']]],
    ['value >= 0', [{ type: 'purchase', session: 's', value: -1, currency: 'USD' }], [['events.0.value', 'too_small']]],
    ['value needs currency', [{ type: 'purchase', session: 's', value: 10 }], [['events.0.currency', 'required']]],
    ['currency is ISO 4217', [{ type: 'purchase', session: 's', value: 10, currency: 'usd' }], [['events.0.currency', 'invalid_format']]],
    ['timestamp is a date-time', [click({ timestamp: 'yesterday' })], [['events.0.timestamp', 'invalid_format']]],
    ['timestamp at most 5 min ahead', [click({ timestamp: minutes(6) })], [['events.0.timestamp', 'too_large']]],
    ['timestamp at most 7 days back', [click({ timestamp: minutes(-7 * 24 * 60 - 5) })], [['events.0.timestamp', 'too_small']]],
    ['unknown field', [click({ user_email: 'x@y' })], [['events.0.user_email', 'unknown_field']]],
    ['the bad one is named by its index', [click({ session: 'bad-call' }), click({ session: 'bad-call', position: -2 })], [['events.1.position', 'too_small']]],
  ];
  for (const [name, events, expected] of cases) {
    const res = await send(events);
    t.same(problems(res), expected, name);
    if (res.status === 400) t.equal(res.body.error.code, 'validation_failed', `${name}: code`);
  }
  const tooMany = await send(Array.from({ length: 1001 }, () => click()));
  t.same(problems(tooMany), [['events', 'too_long']], 'at most 1,000 events');
  t.same(problems(await h.api.call('POST', '/v1/events', { key: a.key, body: {} })), [['events', 'required']]);
  t.equal((await send([click({ timestamp: minutes(4) })])).status, 202, '4 minutes ahead is fine (clock skew)');
  t.same(await stored(a.id, 'bad-call'), [], 'nothing of a rejected call is stored');
});

t.test('the same event_id is stored once: within a call, within the buffer, across flushes', async (t) => {
  const e = (id: string) => click({ session: 'dedupe', event_id: id });
  t.equal((await send([e('e1'), e('e1'), e('e2')])).status, 202);
  t.equal((await send([e('e2'), e('e3')])).status, 202, 'resent before a flush');
  await deps.events.flush();
  t.equal((await send([e('e1'), e('e3'), e('e4')])).status, 202, 'resent after a flush');
  const rows = await stored(a.id, 'dedupe');
  t.same(rows.map((r) => r.client_event_id).sort(), ['e1', 'e2', 'e3', 'e4']);
  await send([click({ session: 'dedupe' }), click({ session: 'dedupe' })]);
  t.equal((await stored(a.id, 'dedupe')).length, 6, 'events without event_id are never deduped');
});

t.test('tenants are isolated: same event_id in two tenants, and each sees only its own', async (t) => {
  const b = await h.tenant('other store');
  await send([click({ session: 'iso', event_id: 'shared-id' })]);
  t.equal((await send([click({ session: 'iso', event_id: 'shared-id', product_id: 'b-prod' })], b.key)).status, 202);
  const mine = await stored(a.id, 'iso');
  const theirs = await stored(b.id, 'iso');
  t.same(
    mine.map((r) => r.product_id),
    ['p1'],
  );
  t.same(
    theirs.map((r) => r.product_id),
    ['b-prod'],
  );
});

t.test('public keys send events from an allowed origin only; the events scope is needed', async (t) => {
  const pub = (await h.api.call('POST', '/v1/keys', { key: a.key, body: { name: 'web', kind: 'public', allowed_origins: ['https://shop.example'] } })).body.key;
  const ok = await send([{ type: 'view', session: 'web', product_id: 'p9' }], pub, { origin: 'https://shop.example' });
  t.equal(ok.status, 202);
  t.equal((await send([{ type: 'view', session: 'web', product_id: 'p9' }], pub, { origin: 'https://evil.example' })).body.error.code, 'origin_not_allowed');
  t.equal((await send([{ type: 'view', session: 'web', product_id: 'p9' }], pub)).body.error.code, 'origin_missing');
  t.equal((await stored(a.id, 'web')).length, 1);
  const searchOnly = (
    await h.api.call('POST', '/v1/keys', {
      key: a.key,
      body: { name: 'search only', kind: 'public', scopes: ['search'], allowed_origins: ['https://shop.example'] },
    })
  ).body.key;
  const refused = await send([{ type: 'view', session: 'web', product_id: 'p9' }], searchOnly, { origin: 'https://shop.example' });
  t.equal(refused.status, 403);
  t.equal(refused.body.error.code, 'scope_missing');
  t.equal((await h.api.call('POST', '/v1/events', { body: { events: [] } })).status, 401);
});

t.test('buffered events are written on close', async (t) => {
  const other = await h.startApi();
  await call(other.url, a.key, [{ type: 'view', session: 'on-close', product_id: 'p1' }]);
  await other.close();
  t.equal((await deps.repos.events.list(a.id, { session: 'on-close' })).length, 1);
});

async function call(url: string, key: string, events: unknown[]) {
  const res = await fetch(`${url}/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  if (res.status !== 202) throw new Error(`events call failed: ${res.status}`);
}
