import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { translatedProducts } from '../../shared/translation/index.js';
import { backfill, caller, itemsByStatus } from './helpers.js';

const { h } = await setupWithWorkers({ TRANSLATION_PROVIDER: 'none', VOCAB_DEBOUNCE_MS: '200' });
const shop = await h.tenant('Shop A');
const other = await h.tenant('Shop B');
const call = caller(h, shop.key);
const otherCall = caller(h, other.key);
await loadProducts(h, shop.key, shop.id, [
  { id: '42', name: { en: 'Kitchen chair' }, description: { en: 'A chair for the kitchen' }, price: 1, currency: 'USD' },
  { id: '43', name: { en: 'Kitchen table', ar: 'طاولة مطبخ' }, price: 1, currency: 'USD' },
]);

t.test('without a provider: status says so, a backfill creates pending items for people, nothing is translated', async (t) => {
  const status = (await call('GET', '/v1/translate/status')).body;
  t.match(status.provider, { configured: false, name: null, message: /no translation provider is configured/ });
  const { estimate, job } = await backfill(call, { target_locale: 'ar', fields: ['name', 'description'] });
  t.match(estimate, { products: 1, fields: 2, estimated_cost_usd: '0.000000', provider: null });
  t.equal(job!.status, 'succeeded');
  t.match(job!.result, { fields: 2, pending_created: 2, chunks: 0, provider: null, note: /no translation provider/ });
  const pending = await itemsByStatus(call, 'pending');
  t.same(
    pending.map((i) => [i.product_id, i.field, i.translated_text, i.ai_translated]).sort(),
    [
      ['42', 'description', null, false],
      ['42', 'name', null, false],
    ],
    'the product with its own Arabic name needs nothing',
  );
  t.match((await call('GET', '/v1/translate/status')).body, { total_fields: 2, by_status: { pending: 2 }, cost_month_usd: '0.000000' });
  t.equal(await translatedProducts(h.api.deps.db, shop.id), 0);
});

t.test('a person translates a pending item: it is served in search and enters the feed', async (t) => {
  const [name] = (await itemsByStatus(call, 'pending')).filter((i) => i.field === 'name');
  const edited = await call('POST', `/v1/translate/review/${name.id}`, { action: 'edit', text: 'كرسي مطبخ' });
  t.match(edited.body, { status: 'human_edited', human_edited: true, translated_text: 'كرسي مطبخ' });
  const hits = await waitFor(
    async () => {
      const r = (await call('GET', `/v1/search?q=${encodeURIComponent('كرسي')}`)).body;
      return r.ids.length && r;
    },
    15_000,
    'edited text searchable',
  );
  t.same(hits.ids, ['42']);
  t.same(
    (await call('GET', '/v1/translate/approved?locale=ar')).body.data.map((r: { id: string }) => r.id),
    [name.id],
  );
});

t.test('backfill limits and validation', async (t) => {
  const bad = async (body: Record<string, unknown>) => (await call('POST', '/v1/translate/backfill', { dry_run: true, ...body })).body.error?.details?.[0];
  t.match(await bad({ review_top_n: 5001 }), { field: 'review_top_n', code: 'too_large' });
  t.match(await bad({ review_top_n: -1 }), { field: 'review_top_n', code: 'too_small' });
  t.match(await bad({ target_locale: 'ara' }), { field: 'target_locale' });
  t.match(await bad({ target_locale: 'fr' }), { field: 'target_locale', code: 'invalid_value' }, 'not a store language');
  t.match(await bad({ target_locale: 'en' }), { field: 'target_locale', code: 'invalid_value' }, 'the default language itself');
  t.match(await bad({ fields: ['price'] }), { field: 'fields.0' });
  t.match(await bad({ fields: [] }), { field: 'fields', code: 'too_short' });
  t.match(await bad({ scope: 'some' }), { field: 'scope' });
  t.match(await bad({ product_ids: ['x'.repeat(129)] }), { field: 'product_ids.0', code: 'too_long' });
  t.match(await bad({ product_ids: Array.from({ length: 20_001 }, (_, i) => `p${i}`) }), { field: 'product_ids', code: 'too_long' });
  t.match(await bad({ dry_run: 'yes' }), { field: 'dry_run' });
  t.match(
    (await call('POST', '/v1/translate/backfill', { review_top_n: 5000, dry_run: true })).body,
    { products: 1, fields: 1, job: null },
    'the description still pending is missing',
  );
  const once = await call('POST', '/v1/translate/backfill', { dry_run: true }, { 'idempotency-key': 'backfill-key-1' });
  const again = await call('POST', '/v1/translate/backfill', { dry_run: true }, { 'idempotency-key': 'backfill-key-1' });
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.same(again.body, once.body);
  t.match((await call('GET', '/v1/translate/status?target_locale=arabic')).body.error, { details: [{ field: 'target_locale' }] });
  t.match((await call('PUT', '/v1/translate/settings', { auto_approve_min_score: 1.5 })).body.error, {
    details: [{ field: 'auto_approve_min_score', code: 'too_large' }],
  });
  t.match((await call('GET', '/v1/translate/export?format=xml')).body.error, { details: [{ field: 'format' }] });
  t.match((await call('GET', '/v1/translate/export?format=sql_opencart&language_id=x')).body.error, { details: [{ field: 'language_id' }] });
});

t.test("tenants never see each other's translations, glossary, settings, feed or usage", async (t) => {
  const mine = await itemsByStatus(call, 'pending');
  const [edited] = await itemsByStatus(call, 'human_edited');
  const term = await call('POST', '/v1/translate/glossary', { source_locale: 'en', target_locale: 'ar', source_term: 'chair', target_term: 'كرسي' });
  await call('PUT', '/v1/translate/settings', { target_locale: 'ar', watch_enabled: true, auto_approve: true });
  for (const status of ['pending', 'human_edited']) t.same(await itemsByStatus(otherCall, status), [], `no ${status} items of shop A`);
  t.equal((await otherCall('POST', `/v1/translate/review/${mine[0].id}`, { action: 'edit', text: 'x' })).status, 404);
  t.equal((await otherCall('POST', `/v1/translate/review/${edited.id}`, { action: 'reject' })).status, 404);
  t.same((await otherCall('POST', '/v1/translate/review/bulk', { ids: [edited.id], action: 'reject' })).body, {
    updated: 0,
    skipped: 1,
    skipped_ids: [edited.id],
  });
  t.same((await otherCall('GET', '/v1/translate/approved?locale=ar')).body.data, []);
  t.same((await otherCall('POST', '/v1/translate/ack', { ids: [edited.id] })).body, { updated: 0 });
  t.match((await otherCall('GET', '/v1/translate/export?format=json')).body, '[]');
  t.same((await otherCall('GET', '/v1/translate/glossary')).body.data, []);
  t.equal(
    (await otherCall('PUT', `/v1/translate/glossary/${term.body.id}`, { source_locale: 'en', target_locale: 'ar', source_term: 'x', do_not_translate: true }))
      .status,
    404,
  );
  t.equal((await otherCall('DELETE', `/v1/translate/glossary/${term.body.id}`)).status, 404);
  t.match((await otherCall('GET', '/v1/translate/settings')).body, { watch_enabled: false, auto_approve: false });
  t.match((await otherCall('GET', '/v1/translate/status')).body, { total_fields: 0, human_edited: 0, watch_enabled: false, cost_month_usd: '0.000000' });
  const db = h.api.deps.db;
  await db('translation_usage_products').insert({ tenant_id: shop.id, month: '2030-01', product_id: '42' });
  t.equal(await translatedProducts(db, other.id, '2030-01'), 0);
  t.equal(await translatedProducts(db, shop.id, '2030-01'), 1);
  // Shop B's products with the same id are not touched by shop A's translations.
  await loadProducts(h, other.key, other.id, [{ id: '42', name: { en: 'Garden chair' }, price: 1, currency: 'USD' }]);
  t.same((await otherCall('GET', `/v1/search?q=${encodeURIComponent('كرسي')}`)).body.ids, []);
  t.equal((await db('translation_items').where({ tenant_id: other.id })).length, 0);
});
