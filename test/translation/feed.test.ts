import t from 'tap';
import { setup } from '../helpers/harness.js';
import { caller } from './helpers.js';
import { lockFeed, NEXT_SEQ } from '../../shared/translation/items.repo.js';
import { deferred } from '../helpers/wait.js';

const h = await setup();
t.teardown(() => h.close());
const shop = await h.tenant();
const call = caller(h, shop.key);
const db = h.api.deps.db;

/** Machine-translated items as the pipeline leaves them. */
async function machineItems(tenantId: string, n: number, prefix: string, field = 'name', base = 100): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => ({
    tenant_id: tenantId,
    id: `tr_${prefix}${String(i).padStart(3, '0')}`,
    product_id: `${base + i}`,
    field,
    field_key: '',
    source_locale: 'en',
    target_locale: 'ar',
    source_text: `Chair ${i}`,
    source_hash: `h${i}`,
    translated_text: `كرسي ${i}`,
    ai_translated: true,
    status: 'machine',
    quality_score: 1,
  }));
  await db('translation_items').insert(rows);
  return rows.map((r) => r.id);
}

/** Reads the whole feed from `since`, page by page. */
async function readFeed(since: string | null, limit: number) {
  const rows: Array<{ id: string }> = [];
  let cursor = since;
  for (;;) {
    const res = await call('GET', `/v1/translate/approved?locale=ar&limit=${limit}${cursor ? `&since=${cursor}` : ''}`);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    rows.push(...res.body.data);
    if (cursor === res.body.next_cursor || !res.body.data.length) return { rows, cursor: res.body.next_cursor as string };
    cursor = res.body.next_cursor;
  }
}

t.test('concurrent approvals: a reader paging all along sees every approved row once, none skipped or repeated', async (t) => {
  const ids = await machineItems(shop.id, 120, 'c');
  const seen: string[] = [];
  let cursor: string | null = null;
  let approving = true;
  const reader = (async () => {
    // Pages of 7 while approvals commit: a cursor past a row not yet visible would lose it for good.
    for (;;) {
      const stillApproving = approving;
      const { rows, cursor: next } = await readFeed(cursor, 7);
      seen.push(...rows.map((r) => r.id));
      cursor = next;
      if (!stillApproving) return;
    }
  })();
  const singles = ids.slice(0, 60).map((id) => call('POST', `/v1/translate/review/${id}`, { action: 'approve' }));
  const bulks = [];
  for (let i = 60; i < 120; i += 10) bulks.push(call('POST', '/v1/translate/review/bulk', { ids: ids.slice(i, i + 10), action: 'approve' }));
  const answers = await Promise.all([...singles, ...bulks]);
  t.ok(
    answers.every((a) => a.status === 200),
    'every approval answered 200',
  );
  approving = false;
  await reader;
  t.equal(new Set(seen).size, seen.length, 'no row repeated');
  t.same([...seen].sort(), ids, 'no row skipped');
});

t.test('an approval in flight holds back later ones, so a reader never passes a row that commits later', async (t) => {
  const [slow, fast] = await machineItems(shop.id, 2, 's', 'name', 300);
  const start = (await readFeed(null, 500)).cursor;
  // An approval that took its feed number and has not committed yet (the pipeline's auto-approve, a big bulk).
  const release = deferred();
  const numbered = deferred();
  const inFlight = db.transaction(async (trx) => {
    await lockFeed(trx, shop.id);
    await trx('translation_items')
      .where({ tenant_id: shop.id, id: slow })
      .update({ status: 'approved', feed_seq: trx.raw(NEXT_SEQ) });
    numbered.resolve();
    await release.promise;
  });
  // The later approval starts only once the first holds the lock and its number (else it could take both first).
  await numbered.promise;
  const later = call('POST', `/v1/translate/review/${fast}`, { action: 'approve' });
  await new Promise((r) => setTimeout(r, 300));
  const meanwhile = await readFeed(start, 500);
  t.same(meanwhile.rows, [], 'the later approval is not visible before the earlier one commits');
  release.resolve();
  await inFlight;
  t.equal((await later).status, 200);
  t.same(
    (await readFeed(meanwhile.cursor, 500)).rows.map((r) => r.id),
    [slow, fast],
    'both arrive, in commit order',
  );
});

t.test('the feed: oldest approval first, write-back fields only, re-approval moves a row to the end, ack sets written_back_at', async (t) => {
  const [a, b] = await machineItems(shop.id, 2, 'f', 'name', 500);
  const [attr] = await machineItems(shop.id, 1, 'g', 'attribute_value', 600);
  const start = (await readFeed(null, 500)).cursor;
  for (const id of [b, a, attr]) await call('POST', `/v1/translate/review/${id}`, { action: 'approve' });
  const page = await call('GET', `/v1/translate/approved?locale=ar&since=${start}`);
  t.same(
    page.body.data.map((r: { id: string }) => r.id),
    [b, a],
    'attribute values are not written back',
  );
  t.match(page.body.data[0], { product_id: '501', field: 'name', locale: 'ar', text: 'كرسي 1', source_hash: 'h1', status: 'approved' });
  t.equal((await call('GET', `/v1/translate/approved?locale=ar&since=${page.body.next_cursor}`)).body.data.length, 0);
  t.equal(
    (await call('GET', `/v1/translate/approved?locale=ar&since=${page.body.next_cursor}`)).body.next_cursor,
    page.body.next_cursor,
    'an empty page keeps the position',
  );

  const ack = await call('POST', '/v1/translate/ack', { ids: [a, b, 'tr_unknown', a] });
  t.same(ack.body, { updated: 2 });
  const rows = await db('translation_items').whereIn('id', [a, b]);
  t.ok(
    rows.every((r) => r.written_back_at instanceof Date),
    'written_back_at set',
  );
  const edited = await call('POST', `/v1/translate/review/${b}`, { action: 'edit', text: 'كرسي مريح' });
  t.match(edited.body, { status: 'human_edited', written_back_at: null }, 'a new text waits to be written back again');
  const again = await call('GET', `/v1/translate/approved?locale=ar&since=${page.body.next_cursor}`);
  t.same(
    again.body.data.map((r: { id: string; status: string }) => [r.id, r.status]),
    [[b, 'human_edited']],
  );
  await call('POST', `/v1/translate/review/${a}`, { action: 'reject' });
  t.notOk(
    (await readFeed(null, 500)).rows.some((r) => r.id === a),
    'a rejected row leaves the feed',
  );
});

t.test('field_key is left out when a field has none (spec 2.4: string, optional), in every answer that carries an item', async (t) => {
  const [name] = await machineItems(shop.id, 1, 'k', 'name', 700);
  const [category] = await machineItems(shop.id, 1, 'l', 'category', 700);
  await db('translation_items').where({ tenant_id: shop.id, id: category }).update({ field_key: '20' });
  const start = (await readFeed(null, 500)).cursor;
  /** The row of each of the two items in a list, by id. */
  const pick = (rows: Array<Record<string, unknown>>) => [name, category].map((id) => rows.find((r) => r.id === id)!);
  const keys = (rows: Array<Record<string, unknown>>) => rows.map((r) => ('field_key' in r ? r.field_key : 'absent'));

  t.same(keys(pick((await call('GET', '/v1/translate/review?status=machine&limit=200')).body.data)), ['absent', '20'], 'review list');
  const decided = [];
  for (const id of [name, category]) decided.push((await call('POST', `/v1/translate/review/${id}`, { action: 'approve' })).body);
  t.same(keys(decided), ['absent', '20'], 'review decision');
  t.same(keys(pick((await readFeed(start, 500)).rows as Array<Record<string, unknown>>)), ['absent', '20'], 'approved feed');
  t.same(keys(pick(JSON.parse((await call('GET', '/v1/translate/export?format=json')).body))), ['absent', '20'], 'json export');

  const doc = (await call('GET', '/v1/openapi.json')).body;
  const item = doc.paths['/v1/translate/review/{translation_id}'].post.responses['200'].content['application/json'].schema;
  const writeItem = doc.paths['/v1/translate/approved'].get.responses['200'].content['application/json'].schema.properties.data.items;
  for (const [label, schema] of [
    ['TranslationItem', item],
    ['TranslationWriteItem', writeItem],
  ]) {
    t.same(schema.properties.field_key.type, 'string', `${label}: field_key is a string, never null`);
    t.notOk(schema.required.includes('field_key'), `${label}: field_key is optional`);
  }
});

t.test('feed and ack limits', async (t) => {
  t.equal((await call('GET', '/v1/translate/approved?locale=ar&limit=500')).status, 200);
  t.match((await call('GET', '/v1/translate/approved?locale=ar&limit=501')).body.error, {
    code: 'validation_failed',
    details: [{ field: 'limit', code: 'too_large' }],
  });
  t.match((await call('GET', '/v1/translate/approved?limit=5')).body.error, { details: [{ field: 'locale', code: 'required' }] });
  t.match((await call('GET', '/v1/translate/approved?locale=arabic')).body.error, { details: [{ field: 'locale' }] });
  t.match((await call('GET', `/v1/translate/approved?locale=ar&since=${'x'.repeat(201)}`)).body.error, { details: [{ field: 'since', code: 'too_long' }] });
  t.match((await call('GET', '/v1/translate/approved?locale=ar&since=bad')).body.error, { code: 'invalid_cursor' });
  t.equal((await call('POST', '/v1/translate/ack', { ids: [] })).status, 400);
  t.equal((await call('POST', '/v1/translate/ack', { ids: Array.from({ length: 501 }, (_, i) => `x${i}`) })).status, 400);
  t.equal((await call('POST', '/v1/translate/ack', {})).status, 400);
});

t.test('the approved feed needs a secret key: public keys and dashboard sessions are refused', async (t) => {
  const pub = await call('POST', '/v1/keys', { name: 'storefront', kind: 'public', allowed_origins: ['https://shop.example'] });
  const asPublic = await h.api.call('GET', '/v1/translate/approved?locale=ar', { key: pub.body.key, headers: { origin: 'https://shop.example' } });
  t.equal(asPublic.status, 403);
  const session = await call('POST', '/v1/sessions', {});
  const asSession = await h.api.call('GET', '/v1/translate/approved?locale=ar', { key: session.body.token });
  t.equal(asSession.status, 403);
  t.equal(asSession.body.error.code, 'key_kind_not_allowed');
  const limited = await call('POST', '/v1/keys', { name: 'no translations', kind: 'secret', scopes: ['search'] });
  t.match((await h.api.call('GET', '/v1/translate/approved?locale=ar', { key: limited.body.key })).body.error, { code: 'scope_missing' });
});
