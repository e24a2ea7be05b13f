import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { backfill, caller, itemsByStatus } from './helpers.js';

// A field the store now translates itself (or no longer has) must leave the feed and the exports:
// a store module writing that text back would overwrite the store's own translation with ours.
const { h } = await setupWithWorkers({ TRANSLATION_PROVIDER: 'none', VOCAB_DEBOUNCE_MS: '200' });
const shop = await h.tenant('Shop A');
const call = caller(h, shop.key);
const product = { id: '50', name: { en: 'Garden hose' }, description: { en: 'A long garden hose' }, price: 1, currency: 'USD' };
await loadProducts(h, shop.key, shop.id, [product]);

t.test('the store translating a field itself, or dropping it, withdraws our item from the feed and the exports', async (t) => {
  await backfill(call, { target_locale: 'ar', fields: ['name', 'description'] });
  const pending = await itemsByStatus(call, 'pending');
  t.equal(pending.length, 2);
  for (const item of pending) {
    const res = await call('POST', `/v1/translate/review/${item.id}`, { action: 'edit', text: item.field === 'name' ? 'خرطوم حديقة' : 'خرطوم حديقة طويل' });
    t.equal(res.status, 200);
  }
  t.equal((await call('GET', '/v1/translate/approved?locale=ar')).body.data.length, 2);

  // The store writes its own Arabic name and drops the description.
  await loadProducts(h, shop.key, shop.id, [{ ...product, name: { en: 'Garden hose', ar: 'خرطوم الحديقة الأصلي' }, description: undefined }]);
  t.same((await call('GET', '/v1/translate/approved?locale=ar')).body.data, [], 'nothing to write back over the store');
  t.same(JSON.parse((await call('GET', '/v1/translate/export?format=json&target_locale=ar')).body), [], 'the export has nothing either');
  t.same(await itemsByStatus(call, 'human_edited'), []);
  t.match((await call('GET', '/v1/translate/status')).body, { total_fields: 0 });
});
