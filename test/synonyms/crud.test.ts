import t from 'tap';
import { Redis } from 'ioredis';
import { setup } from '../helpers/harness.js';

const h = await setup();
const sub = new Redis(h.config.redisUrl);
const notices: string[] = [];
await sub.subscribe(`${h.config.queuePrefix}:synonyms-changed`);
sub.on('message', (_ch: string, msg: string) => notices.push(msg));
t.teardown(async () => {
  sub.disconnect();
  await h.close();
});
const a = await h.tenant('Store A');
const b = await h.tenant('Store B');
const call = (method: string, path: string, body?: unknown, key = a.key, headers: Record<string, string> = {}) =>
  h.api.call(method, path, { key, body, headers });
const create = (body: unknown, key = a.key) => call('POST', '/v1/synonyms', body, key);
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  return check();
};

t.test('create, get, replace and delete a rule', async (t) => {
  const made = await create({ kind: 'equivalent', terms: [' tv ', 'television', 'telly'] });
  t.equal(made.status, 201);
  t.match(made.body, {
    kind: 'equivalent',
    terms: ['tv', 'television', 'telly'],
    input: null,
    outputs: [],
    conditions: null,
    locale: null,
    set_key: 'default',
    enabled: true,
    source: 'manual',
  });
  t.match(made.body.id, /^syn_/);
  const got = await call('GET', `/v1/synonyms/${made.body.id}`);
  t.same(got.body, made.body);

  const put = await call('PUT', `/v1/synonyms/${made.body.id}`, {
    kind: 'one_way',
    input: 'tv',
    outputs: ['television'],
    conditions: { unless_terms: ['stand'] },
    locale: 'en',
    set_key: 'electronics',
    enabled: false,
  });
  t.equal(put.status, 200);
  t.match(put.body, {
    id: made.body.id,
    kind: 'one_way',
    terms: [],
    input: 'tv',
    outputs: ['television'],
    conditions: { unless_terms: ['stand'] },
    locale: 'en',
    set_key: 'electronics',
    enabled: false,
    source: 'manual',
  });
  t.ok(Date.parse(put.body.updated_at) >= Date.parse(made.body.updated_at));
  const full = await call('PUT', `/v1/synonyms/${made.body.id}`, { kind: 'one_way', input: 'tv', outputs: ['telly'] });
  t.match(full.body, { conditions: null, locale: null, set_key: 'default', enabled: true }, 'omitted fields take their defaults');

  const del = await call('DELETE', `/v1/synonyms/${made.body.id}`);
  t.same([del.status, del.body], [200, { deleted: true, id: made.body.id }]);
  t.equal((await call('GET', `/v1/synonyms/${made.body.id}`)).body.error.code, 'not_found');
  t.equal((await call('DELETE', `/v1/synonyms/${made.body.id}`)).status, 404);
  t.equal((await call('PUT', '/v1/synonyms/syn_nope', { kind: 'equivalent', terms: ['x', 'y'] })).status, 404);
});

t.test('every invalid shape is a 400 naming the field', async (t) => {
  const cases: Array<[string, unknown, string, string]> = [
    ['one term', { kind: 'equivalent', terms: ['tv'] }, 'terms', 'too_short'],
    ['no terms', { kind: 'equivalent' }, 'terms', 'too_short'],
    ['Arabic variants are one term', { kind: 'equivalent', terms: ['أحمر', 'احمر'] }, 'terms.1', 'duplicate_term'],
    ['term without letters', { kind: 'equivalent', terms: ['tv', '  ـ '] }, 'terms.1', 'empty_term'],
    ['conditions on equivalent', { kind: 'equivalent', terms: ['a', 'b'], conditions: { unless_terms: ['x'] } }, 'conditions', 'not_allowed'],
    ['input on equivalent', { kind: 'equivalent', terms: ['a', 'b'], input: 'a' }, 'input', 'not_allowed'],
    ['one_way without input', { kind: 'one_way', outputs: ['x'] }, 'input', 'required'],
    ['one_way with blank input', { kind: 'one_way', input: '  ', outputs: ['x'] }, 'input', 'required'],
    ['one_way without outputs', { kind: 'one_way', input: 'x' }, 'outputs', 'required'],
    ['one_way with terms', { kind: 'one_way', input: 'x', outputs: ['y'], terms: ['a', 'b'] }, 'terms', 'not_allowed'],
    ['output equal to input', { kind: 'one_way', input: 'Phone', outputs: ['phone'] }, 'outputs.0', 'same_as_input'],
    ['input over 200', { kind: 'one_way', input: 'x'.repeat(201), outputs: ['y'] }, 'input', 'too_long'],
    ['bad locale', { kind: 'equivalent', terms: ['a', 'b'], locale: 'EN' }, 'locale', 'invalid_format'],
    ['bad set_key', { kind: 'equivalent', terms: ['a', 'b'], set_key: 'Bad Key' }, 'set_key', 'invalid_format'],
    ['bad kind', { kind: 'both', terms: ['a', 'b'] }, 'kind', 'invalid_value'],
    ['missing kind', { terms: ['a', 'b'] }, 'kind', 'required'],
    ['unknown field', { kind: 'equivalent', terms: ['a', 'b'], weight: 2 }, 'weight', 'unknown_field'],
    ['unknown condition', { kind: 'one_way', input: 'a', outputs: ['b'], conditions: { when: ['x'] } }, 'conditions.when', 'unknown_field'],
  ];
  for (const [name, body, field, code] of cases) {
    const res = await create(body);
    t.equal(res.status, 400, name);
    t.equal(res.body.error.code, 'validation_failed', name);
    t.match(res.body.error.details, [{ in: 'body', field, code }], name);
  }
  const put = await call('PUT', '/v1/synonyms/syn_whatever', { kind: 'equivalent', terms: ['one'] });
  t.same([put.status, put.body.error.details[0].field], [400, 'terms'], 'PUT validates the same way');
});

t.test('duplicates are 409 synonym_duplicate naming the existing rule', async (t) => {
  const first = await create({ kind: 'equivalent', terms: ['أحمر', 'red'] });
  t.equal(first.status, 201);
  const dup = await create({ kind: 'equivalent', terms: ['RED', 'احمر'] });
  t.equal(dup.status, 409);
  t.equal(dup.body.error.code, 'synonym_duplicate');
  t.equal(dup.body.error.details.existing_id, first.body.id);
  t.match(dup.body.error.message, first.body.id);
  t.equal((await create({ kind: 'equivalent', terms: ['red', 'احمر'], set_key: 'colors' })).status, 201, 'another set may hold it');
  t.equal((await create({ kind: 'one_way', input: 'red', outputs: ['أحمر'] })).status, 201, 'a one_way rule is another rule');

  const ow = await create({ kind: 'one_way', input: 'phone', outputs: ['mobile', 'cell phone'] });
  const owDup = await create({ kind: 'one_way', input: 'Phone', outputs: ['cell  phone', 'mobile'], conditions: { require_terms: ['new'] } });
  t.same([owDup.status, owDup.body.error.details.existing_id], [409, ow.body.id], 'outputs in any order, conditions aside');
  const other = await create({ kind: 'equivalent', terms: ['sofa', 'couch'] });
  const clash = await call('PUT', `/v1/synonyms/${other.body.id}`, { kind: 'equivalent', terms: ['red', 'أحمر'] });
  t.same([clash.status, clash.body.error.code, clash.body.error.details.existing_id], [409, 'synonym_duplicate', first.body.id]);
  t.equal(
    (await call('PUT', `/v1/synonyms/${first.body.id}`, { kind: 'equivalent', terms: ['red', 'أحمر', 'rouge'] })).status,
    200,
    'a rule may keep its own identity',
  );
});

t.test('list: cursor pages in creation order, q and set_key filters', async (t) => {
  const c = await h.tenant('Store C');
  const ids: string[] = [];
  for (const terms of [
    ['laptop', 'notebook'],
    ['tv', 'Television'],
    ['أحمر', 'red'],
    ['sofa', 'couch'],
    ['phone', 'mobile'],
  ]) {
    ids.push((await create({ kind: 'equivalent', terms, set_key: terms[0] === 'sofa' ? 'home' : 'default' }, c.key)).body.id);
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  const sizes: number[] = [];
  do {
    const res = await call('GET', `/v1/synonyms?limit=2${cursor ? `&cursor=${cursor}` : ''}`, undefined, c.key);
    t.equal(res.status, 200);
    sizes.push(res.body.data.length);
    seen.push(...res.body.data.map((r: { id: string }) => r.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  t.same(sizes, [2, 2, 1]);
  t.same(seen, ids, 'every rule once, oldest first');
  const q = async (text: string, extra = '') =>
    (await call('GET', `/v1/synonyms?q=${encodeURIComponent(text)}${extra}`, undefined, c.key)).body.data.map((r: { id: string }) => r.id);
  t.same(await q('TELEV'), [ids[1]], 'case-insensitive substring');
  t.same(await q('احمر'), [ids[2]], 'compared after normalization');
  t.same(await q('o', '&set_key=home'), [ids[3]]);
  t.same(await q('zzz'), []);
  t.same(
    (await call('GET', '/v1/synonyms?set_key=home', undefined, c.key)).body.data.map((r: { id: string }) => r.id),
    [ids[3]],
  );
  const bad: Array<[string, string, string]> = [
    ['limit=0', 'limit', 'too_small'],
    ['limit=201', 'limit', 'too_large'],
    [`q=${'x'.repeat(101)}`, 'q', 'too_long'],
    ['cursor=abc', 'cursor', 'invalid_cursor'],
  ];
  for (const [qs, field, code] of bad) {
    const res = await call('GET', `/v1/synonyms?${qs}`, undefined, c.key);
    t.equal(res.status, 400, qs);
    t.match(res.body.error.details, [{ field, code }], qs);
  }
  t.equal((await call('GET', '/v1/synonyms', undefined, c.key)).body.data.length, 5, 'default limit 100');
});

t.test("tenants never see or change each other's rules", async (t) => {
  const mine = await create({ kind: 'equivalent', terms: ['jumper', 'sweater'] });
  t.equal((await call('GET', `/v1/synonyms/${mine.body.id}`, undefined, b.key)).status, 404);
  t.equal((await call('PUT', `/v1/synonyms/${mine.body.id}`, { kind: 'equivalent', terms: ['x', 'y'] }, b.key)).status, 404);
  t.equal((await call('DELETE', `/v1/synonyms/${mine.body.id}`, undefined, b.key)).status, 404);
  t.same((await call('GET', '/v1/synonyms?q=jumper', undefined, b.key)).body.data, []);
  t.equal((await create({ kind: 'equivalent', terms: ['sweater', 'jumper'] }, b.key)).status, 201, 'no duplicate across tenants');
  t.same((await call('GET', `/v1/synonyms/${mine.body.id}`)).body.terms, ['jumper', 'sweater'], 'unchanged');
});

t.test('scopes: reads need synonyms:read, writes synonyms:write', async (t) => {
  const mint = async (scopes: string[]) => (await call('POST', '/v1/keys', { name: scopes.join(' '), kind: 'secret', scopes })).body.key;
  const reader = await mint(['synonyms:read']);
  const other = await mint(['catalog:read']);
  t.equal((await call('GET', '/v1/synonyms', undefined, reader)).status, 200);
  const denied = await create({ kind: 'equivalent', terms: ['a', 'b'] }, reader);
  t.same([denied.status, denied.body.error.code, denied.body.error.details.required_scope], [403, 'scope_missing', 'synonyms:write']);
  t.equal((await call('GET', '/v1/synonyms', undefined, other)).status, 403);
  t.equal((await call('GET', '/v1/synonyms/export', undefined, other)).status, 403);
});

t.test('Idempotency-Key replays a create', async (t) => {
  const body = { kind: 'one_way', input: 'hoodie', outputs: ['sweatshirt'] };
  const first = await call('POST', '/v1/synonyms', body, a.key, { 'idempotency-key': 'syn-create-0001' });
  const again = await call('POST', '/v1/synonyms', body, a.key, { 'idempotency-key': 'syn-create-0001' });
  t.same([first.status, again.status], [201, 201]);
  t.same(again.body, first.body);
  t.equal(again.headers.get('idempotent-replayed'), 'true');
});

t.test('every write announces the tenant on the synonyms-changed channel', async (t) => {
  notices.length = 0;
  const made = await create({ kind: 'equivalent', terms: ['cap', 'hat'] }, b.key);
  await call('PUT', `/v1/synonyms/${made.body.id}`, { kind: 'equivalent', terms: ['cap', 'hat', 'beanie'] }, b.key);
  await call('DELETE', `/v1/synonyms/${made.body.id}`, undefined, b.key);
  await create({ kind: 'equivalent', terms: ['x1'] }, b.key);
  t.ok(await waitFor(() => notices.length >= 3));
  await new Promise((r) => setTimeout(r, 100));
  t.same(notices, [b.id, b.id, b.id], 'three writes, no notice for the refused one');
});
