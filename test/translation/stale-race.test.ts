import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';
import { backfill, caller } from './helpers.js';

// The catalog hook reads a product's items, then marks the changed ones stale. A review decision
// committed in between must count: the stale status is decided on the item as it is then, not as
// it was read (a person's edit went back to `pending`, a rejected text was served again).
// One catalog job at a time: the decisions' own re-index jobs run after the held one, as they would behind a busy queue.
const { h } = await setupWithWorkers({ TRANSLATION_PROVIDER: 'none', VOCAB_DEBOUNCE_MS: '200', WORKER_CONCURRENCY: 'catalog=1' });
const shop = await h.tenant();
const call = caller(h, shop.key);
const db = h.api.deps.db;
const products = ['s0', 's1'].map((id) => ({ id, name: { en: `Oak desk ${id}` }, description: { en: `A solid oak desk ${id}` }, price: 1, currency: 'USD' }));
await loadProducts(h, shop.key, shop.id, products);
await backfill(call, { target_locale: 'ar', fields: ['name', 'description'] });
const nameItem = async (productId: string) => db('translation_items').where({ tenant_id: shop.id, product_id: productId, field: 'name' }).first();
const [s0, s1] = [await nameItem('s0'), await nameItem('s1')];
await db('translation_items').where({ id: s1.id }).update({ status: 'approved', translated_text: 'مكتب من خشب البلوط', ai_translated: true });

t.test('a decision committed while a source change is being applied is not lost', async (t) => {
  // The hook is stopped between its read and its stale marking: its first write (the dropped descriptions go) waits.
  const hold = await holdWrites(db, {
    name: 'hold_gone_fields',
    table: 'translation_items',
    on: 'DELETE',
    when: `OLD.tenant_id = '${shop.id}' AND OLD.field = 'description'`,
  });
  t.teardown(() => hold.remove());
  const changed = products.map((p) => ({ ...p, name: { en: `${p.name.en} with drawers` }, description: undefined }));
  const batch = await call('POST', '/v1/products/batch', { upsert: changed });
  t.equal(batch.status, 200);
  await eventually(async () => (await lockWaiters(db)) > 0, 20_000);

  const edit = await call('POST', `/v1/translate/review/${s0.id}`, { action: 'edit', text: 'مكتب بلوط من إنسان' });
  t.equal(edit.status, 200);
  t.equal(edit.body.status, 'human_edited');
  const reject = await call('POST', `/v1/translate/review/${s1.id}`, { action: 'reject' });
  t.equal(reject.status, 200);
  t.equal(reject.body.status, 'rejected');

  await hold.release();
  await eventually(async () => (await h.api.deps.repos.products.countUnindexed(shop.id)) === 0, 20_000);

  t.match(
    await nameItem('s0'),
    { status: 'stale', stale_from: 'human_edited', human_edited: true, translated_text: 'مكتب بلوط من إنسان', source_text: 'Oak desk s0 with drawers' },
    "the person's edit goes stale as a person's text (it was left `pending`, out of search and the feed)",
  );
  t.match(
    await nameItem('s1'),
    { status: 'stale', stale_from: 'rejected', source_text: 'Oak desk s1 with drawers' },
    'the rejected text goes stale as rejected (it went stale as approved, and search served it again)',
  );
  const status = (await call('GET', '/v1/translate/status')).body;
  t.match(status, { by_status: { pending: 0, stale: 2 }, human_edited: 1 });
  const served = await h.api.deps.repos.translationItems.served(shop.id, ['s0', 's1']);
  t.same(
    served.map((r) => r.product_id),
    ['s0'],
    "search serves the person's text, never the rejected one",
  );
});
