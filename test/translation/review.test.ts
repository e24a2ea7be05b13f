import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';
import { backfill, caller, itemsByStatus } from './helpers.js';

const fake = await startFakeOpenAi();
t.teardown(() => fake.close());
const { h } = await setupWithWorkers({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', VOCAB_DEBOUNCE_MS: '200' });
const shop = await h.tenant();
const call = caller(h, shop.key);
const db = h.api.deps.db;
const ids = Array.from({ length: 8 }, (_, i) => `r${i}`);
await loadProducts(
  h,
  shop.key,
  shop.id,
  ids.map((id, i) => ({ id, name: { en: `Blue chair ${i}` }, price: 1, currency: 'USD' })),
);
await backfill(call, { target_locale: 'ar', fields: ['name'] });
const items = Object.fromEntries((await itemsByStatus(call, 'machine')).map((i) => [i.product_id, i.id]));
const review = (id: string, body: Record<string, unknown>) => call('POST', `/v1/translate/review/${id}`, body);
/** Puts an item straight into a status, as the pipeline or earlier decisions would leave it. */
const force = (id: string, fields: Record<string, unknown>) => db('translation_items').where({ tenant_id: shop.id, id }).update(fields);

t.test('approve, reject and edit from every status: allowed ones move, the rest answer 409 invalid_transition', async (t) => {
  // [from status, human_edited, has text, action, expected status or 409]
  const cases: Array<[string, boolean, boolean, string, string]> = [
    ['pending', false, false, 'approve', '409'],
    ['pending', false, false, 'reject', '409'],
    ['pending', false, false, 'edit', 'human_edited'],
    ['machine', false, true, 'approve', 'approved'],
    ['machine', false, true, 'reject', 'rejected'],
    ['machine', false, true, 'edit', 'human_edited'],
    ['review', false, true, 'approve', 'approved'],
    ['review', false, true, 'reject', 'rejected'],
    ['review', false, true, 'edit', 'human_edited'],
    ['approved', false, true, 'approve', '409'],
    ['approved', false, true, 'reject', 'rejected'],
    ['approved', false, true, 'edit', 'human_edited'],
    ['rejected', false, true, 'approve', 'approved'],
    ['rejected', false, true, 'reject', '409'],
    ['rejected', false, true, 'edit', 'human_edited'],
    ['human_edited', true, true, 'approve', '409'],
    ['human_edited', true, true, 'reject', '409'],
    ['human_edited', true, true, 'edit', 'human_edited'],
    ['stale', false, true, 'approve', '409'],
    ['stale', false, true, 'reject', 'rejected'],
    ['stale', true, true, 'reject', '409'],
    ['stale', false, true, 'edit', 'human_edited'],
  ];
  const id = items.r0;
  for (const [from, human, hasText, action, expected] of cases) {
    await force(id, { status: from, human_edited: human, translated_text: hasText ? 'نص' : null, stale_from: from === 'stale' ? 'machine' : null });
    const res = await review(id, action === 'edit' ? { action, text: 'كرسي أزرق' } : { action });
    const label = `${from}${human ? ' (human)' : ''} --${action}-->`;
    if (expected === '409') {
      t.equal(res.status, 409, `${label} 409`);
      t.match(res.body.error, { code: 'invalid_transition', details: { id, status: from, action } }, label);
    } else {
      t.equal(res.status, 200, `${label} ${expected}`);
      t.equal(res.body.status, expected, label);
    }
  }
});

t.test('edit needs a text of at most 20,000 characters', async (t) => {
  const id = items.r1;
  t.match((await review(id, { action: 'edit' })).body.error, { code: 'validation_failed', details: [{ field: 'text', code: 'required' }] });
  t.match((await review(id, { action: 'edit', text: 'x'.repeat(20_001) })).body.error, {
    code: 'validation_failed',
    details: [{ field: 'text', code: 'too_long' }],
  });
  t.match((await review(id, { action: 'maybe' })).body.error, { details: [{ field: 'action' }] });
  t.equal((await review('tr_nope', { action: 'approve' })).status, 404);
  const ok = await review(id, { action: 'edit', text: 'x'.repeat(20_000) });
  t.equal(ok.status, 200);
  t.match(ok.body, { status: 'human_edited', human_edited: true, ai_translated: false });
  t.match(ok.body.quality_notes, { target_script: { result: 'error' } }, "a person's text is checked too, for the record");
});

t.test('approve and reject take a text or null (spec 4.3) and leave the translation as it was', async (t) => {
  const id = items.r1;
  await force(id, { status: 'machine', human_edited: false, ai_translated: true, translated_text: 'كرسي آلي' });
  const approved = await review(id, { action: 'approve', text: 'x' });
  t.equal(approved.status, 200);
  t.match(approved.body, { status: 'approved', translated_text: 'كرسي آلي', human_edited: false, ai_translated: true });
  const rejected = await review(id, { action: 'reject', text: null });
  t.equal(rejected.status, 200);
  t.match(rejected.body, { status: 'rejected', translated_text: 'كرسي آلي', human_edited: false });
  t.match(await db('translation_items').where({ id }).first(), { status: 'rejected', translated_text: 'كرسي آلي', human_edited: false });
  t.match((await review(id, { action: 'edit', text: null })).body.error, { details: [{ field: 'text', code: 'required' }] }, 'edit still needs one');
  t.match((await review(id, { action: 'approve', text: 'x'.repeat(20_001) })).body.error, { details: [{ field: 'text', code: 'too_long' }] });
});

t.test('bulk approve and reject: allowed items move, the others are skipped and listed', async (t) => {
  await force(items.r2, { status: 'machine', human_edited: false, translated_text: 'أ' });
  await force(items.r3, { status: 'review', human_edited: false, translated_text: 'ب' });
  await force(items.r4, { status: 'pending', human_edited: false, translated_text: null });
  const res = await call('POST', '/v1/translate/review/bulk', { ids: [items.r2, items.r3, items.r4, 'tr_unknown'], action: 'approve' });
  t.equal(res.status, 200);
  t.same(res.body, { updated: 2, skipped: 2, skipped_ids: [items.r4, 'tr_unknown'] });
  const rej = await call('POST', '/v1/translate/review/bulk', { ids: [items.r2, items.r3], action: 'reject' });
  t.same(rej.body, { updated: 2, skipped: 0, skipped_ids: [] });
  t.equal((await call('POST', '/v1/translate/review/bulk', { ids: [], action: 'approve' })).status, 400);
  t.equal((await call('POST', '/v1/translate/review/bulk', { ids: Array.from({ length: 1001 }, (_, i) => `x${i}`), action: 'approve' })).status, 400);
});

t.test('the review list pages by status with a cursor and a total', async (t) => {
  for (const id of ids) await force(items[id], { status: 'review', human_edited: false, translated_text: 'ن' });
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res: { body: { data: Array<{ id: string }>; next_cursor: string | null; total: number } } = await call(
      'GET',
      `/v1/translate/review?status=review&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
    );
    t.equal(res.body.total, 8);
    seen.push(...res.body.data.map((i) => i.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  t.same(seen.sort(), Object.values(items).sort());
  t.equal((await call('GET', '/v1/translate/review?limit=201')).status, 400);
  t.equal((await call('GET', '/v1/translate/review?limit=0')).status, 400);
  t.equal((await call('GET', `/v1/translate/review?cursor=${'a'.repeat(201)}`)).status, 400);
  t.match((await call('GET', '/v1/translate/review?cursor=garbage')).body.error, { code: 'invalid_cursor' });
  t.match((await call('GET', '/v1/translate/review?status=nope')).body.error, { code: 'validation_failed' });
});

t.test('a source change marks translations stale; their text stays served until replaced; human edits are never overwritten', async (t) => {
  await force(items.r5, { status: 'approved', human_edited: false, translated_text: 'كرسي أزرق 5' });
  await force(items.r6, { status: 'human_edited', human_edited: true, translated_text: 'كرسي أزرق فاخر' });
  await force(items.r7, { status: 'pending', human_edited: false, translated_text: null });
  await loadProducts(
    h,
    shop.key,
    shop.id,
    ['r5', 'r6', 'r7'].map((id) => ({ id, name: { en: `Blue chair ${id} deluxe` }, price: 1, currency: 'USD' })),
  );
  const rows = Object.fromEntries(
    (await db('translation_items').where({ tenant_id: shop.id }).whereIn('product_id', ['r5', 'r6', 'r7'])).map((r) => [r.product_id, r]),
  );
  t.match(rows.r5, { status: 'stale', stale_from: 'approved', source_text: 'Blue chair r5 deluxe', translated_text: 'كرسي أزرق 5' });
  t.match(rows.r6, { status: 'stale', stale_from: 'human_edited', human_edited: true });
  t.match(rows.r7, { status: 'pending', source_text: 'Blue chair r7 deluxe' }, 'pending just takes the new source');
  const hits = await waitFor(
    async () => {
      const r = (await call('GET', `/v1/search?q=${encodeURIComponent('فاخر')}`)).body;
      return r.ids.length && r;
    },
    15_000,
    'stale human text served',
  );
  t.same(hits.ids, ['r6'], 'the stale text is still served');

  const calls = fake.requests.length;
  const { job } = await backfill(call, { target_locale: 'ar', fields: ['name'], scope: 'stale' });
  t.equal(job!.status, 'succeeded');
  const after = Object.fromEntries(
    (await db('translation_items').where({ tenant_id: shop.id }).whereIn('product_id', ['r5', 'r6'])).map((r) => [r.product_id, r]),
  );
  t.match(after.r5, { status: 'machine', stale_from: null }, 'stale machine-made text re-translated');
  t.match(after.r6, { status: 'stale', translated_text: 'كرسي أزرق فاخر' }, 'stale human text is left for a person');
  t.ok(fake.requests.length > calls);
  await backfill(call, { target_locale: 'ar', fields: ['name'], scope: 'all' });
  t.match(
    await db('translation_items').where({ id: items.r6 }).first(),
    { translated_text: 'كرسي أزرق فاخر', human_edited: true },
    'scope all never overwrites it either',
  );
});

t.test("a person's edit made while the machine translates is not overwritten", async (t) => {
  await force(items.r1, { status: 'pending', human_edited: false, translated_text: null });
  fake.latencyMs = 1500;
  const sent = fake.requests.length;
  const started = await call('POST', '/v1/translate/backfill', { target_locale: 'ar', fields: ['name'], product_ids: ['r1'] });
  await waitFor(() => fake.requests.length > sent, 10_000, 'provider called');
  t.equal((await review(items.r1, { action: 'edit', text: 'كرسي من إنسان' })).status, 200);
  fake.latencyMs = 0;
  const job = await waitFor(
    async () => {
      const j = (await call('GET', `/v1/jobs/${started.body.job.id}`)).body;
      return j.status === 'succeeded' && j;
    },
    20_000,
    'backfill done',
  );
  t.match(job.result, { not_written: 1 });
  t.match(await db('translation_items').where({ id: items.r1 }).first(), { status: 'human_edited', translated_text: 'كرسي من إنسان' });
});

t.test('watch mode translates new and changed products automatically', async (t) => {
  await call('PUT', '/v1/translate/settings', { target_locale: 'ar', watch_enabled: true });
  t.equal((await call('GET', '/v1/translate/status')).body.watch_enabled, true);
  await loadProducts(h, shop.key, shop.id, [
    { id: 'new1', name: { en: 'Red coffee table' }, price: 1, currency: 'USD' },
    { id: 'r5', name: { en: 'Blue chair r5 classic' }, price: 1, currency: 'USD' },
  ]);
  const translated = await waitFor(
    async () => {
      const rows: Array<{ status: string; source_text: string }> = await db('translation_items')
        .where({ tenant_id: shop.id, field: 'name' })
        .whereIn('product_id', ['new1', 'r5']);
      return rows.length === 2 && rows.every((r) => r.status === 'machine') ? rows : null;
    },
    20_000,
    'watch translated both',
  );
  t.same(translated.map((r) => r.source_text).sort(), ['Blue chair r5 classic', 'Red coffee table']);
  const hits = await waitFor(
    async () => {
      const r = (await call('GET', `/v1/search?q=${encodeURIComponent('طاولة قهوة')}`)).body;
      return r.ids.length && r;
    },
    15_000,
    'watch-made translation searchable',
  );
  t.same(hits.ids, ['new1']);
  await call('PUT', '/v1/translate/settings', { target_locale: 'ar', watch_enabled: false });
});
