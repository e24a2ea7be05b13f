import t from 'tap';
import { setup } from '../helpers/harness.js';

// Issue 12, item 3: text no store can keep (a lone UTF-16 surrogate, U+0000) is refused the
// same way everywhere: a per-item error inside a batch, a 400 `invalid_text` for anything else,
// never a 500 and never silently changed to U+FFFD.
const h = await setup();
t.teardown(() => h.close());
const { id: tenantId, key } = await h.tenant();
const db = h.api.deps.db;
const product = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: { en: `Product ${id}` }, price: 10, currency: 'USD', ...extra });

/** Rows of `table` (for this tenant) whose JSON form holds U+FFFD: text someone's bad character was turned into. */
const replacementChars = async (table: string) =>
  Number((await db.raw(`SELECT count(*) AS n FROM ${table} t WHERE tenant_id = ? AND strpos(to_jsonb(t)::text, chr(65533)) > 0`, [tenantId])).rows[0].n);

t.test('one lone surrogate in a 1,000-item batch fails that item only', async (t) => {
  const upsert = Array.from({ length: 999 }, (_, i) => product(`p${i}`));
  upsert[417] = product('p417', { name: { en: 'Broken \ud800 name' } });
  upsert[600] = product('p600', { attributes: { 'colo\u0000r': 'red' } });
  upsert[601] = product('p601', { tags: ['ok', 'x\udfff'] });
  const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert, delete: ['gone\u0000'] } });
  t.equal(res.status, 200);
  t.equal(res.body.upserted, 996);
  t.same(
    res.body.errors.map((e: { index: number; code: string; id: string | null }) => [e.index, e.code, e.id]),
    [
      [417, 'invalid_text', 'p417'],
      [600, 'invalid_text', 'p600'],
      [601, 'invalid_text', 'p601'],
      [999, 'invalid_text', null],
    ],
  );
  t.match(res.body.errors[0].message, /^name\.en: .*lone UTF-16 surrogate/);
  t.match(res.body.errors[1].message, /^attributes\.\(key "colo\\u0000r"\): a field name holds U\+0000/);
  t.match(res.body.errors[2].message, /^tags\.1: /);
  t.equal(Number((await db('products').where({ tenant_id: tenantId }).count({ n: '*' }))[0].n), 996);
  t.equal(await replacementChars('products'), 0, 'nothing was stored with U+FFFD in place of the bad character');
});

t.test('single writes answer 400 invalid_text naming the field; nothing is stored', async (t) => {
  const synonym = await h.api.call('POST', '/v1/synonyms', { key, body: { kind: 'equivalent', terms: ['tv', 'tele\ud800vision'] } });
  t.equal(synonym.status, 400);
  t.equal(synonym.body.error.code, 'invalid_text');
  t.match(synonym.body.error.details, [{ in: 'body', field: 'terms.1', code: 'invalid_text' }]);
  t.equal(await replacementChars('synonyms'), 0);
  t.equal(Number((await db('synonyms').where({ tenant_id: tenantId }).count({ n: '*' }))[0].n), 0);

  const keyName = await h.api.call('POST', '/v1/keys', { key, body: { name: 'web \udc00', kind: 'secret' } });
  t.equal(keyName.status, 400);
  t.match(keyName.body.error.details, [{ field: 'name', code: 'invalid_text' }]);
  t.equal(await replacementChars('api_keys'), 0);

  const events = await h.api.call('POST', '/v1/events', { key, body: { events: [{ type: 'view', session: 's\u0000', product_id: 'p1' }] } });
  t.equal(events.status, 400);
  t.match(events.body.error.details, [{ field: 'events.0.session', code: 'invalid_text' }]);
});

t.test('query strings and path segments: NUL, lone surrogates and non-UTF-8 escapes', async (t) => {
  for (const path of [
    '/v1/search?q=a%00b',
    '/v1/search?q=%ED%A0%80',
    '/v1/suggest?q=%FF',
    '/v1/products/p%00',
    '/v1/products/%ED%A0%80',
    '/v1/synonyms?q=x%00',
  ]) {
    const res = await h.api.call('GET', path, { key });
    t.equal(res.status, 400, path);
    t.equal(res.body.error.code, 'invalid_text', path);
  }
  t.equal((await h.api.call('GET', '/v1/search?q=50%', { key })).status, 200, 'a stray % is taken literally, as before');
  t.equal((await h.api.call('GET', '/v1/search?q=%D9%87%D8%A7%D8%AA%D9%81', { key })).status, 200, 'Arabic, percent-encoded');
});

t.test('a body that is not UTF-8 is refused, not decoded with U+FFFD', async (t) => {
  const res = await fetch(`${h.api.url}/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","kind":"secret"}')]),
  });
  t.equal(res.status, 400);
  t.equal((await res.json()).error.code, 'invalid_text');
});

t.test('a synonym import reports the bad line and applies the others', async (t) => {
  const content = 'tv, television\nphone, mob\u0000ile\nlaptop, notebook\n';
  const res = await h.api.call('POST', '/v1/synonyms/import', { key, body: { format: 'solr', content } });
  t.equal(res.status, 200);
  t.equal(res.body.created, 2);
  t.equal(res.body.errors.length, 1);
  t.match(res.body.errors[0], /^line 2: .*U\+0000/);
  t.equal(await replacementChars('synonyms'), 0);
});
