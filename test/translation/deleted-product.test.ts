import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';
import { caller, itemsByStatus, jobDone } from './helpers.js';

// Items of deleted products go (README "Stale marking and watch mode"): also when the product is
// deleted while a backfill that read it is still creating its items. Left behind, such an item sat
// in the review queue and the counts for good, and once approved went to the feed and the exports.
const { h } = await setupWithWorkers({ TRANSLATION_PROVIDER: 'none', VOCAB_DEBOUNCE_MS: '200' });
const shop = await h.tenant();
const call = caller(h, shop.key);
const db = h.api.deps.db;
await loadProducts(
  h,
  shop.key,
  shop.id,
  ['g0', 'g1'].map((id) => ({ id, name: { en: `Copper kettle ${id}` }, price: 1, currency: 'USD' })),
);

t.test('a product deleted while a backfill creates its items leaves no item behind', async (t) => {
  // The backfill has read both products; its item for g1 waits at its write.
  const hold = await holdWrites(db, {
    name: 'hold_pending_g1',
    table: 'translation_items',
    on: 'INSERT',
    when: `NEW.tenant_id = '${shop.id}' AND NEW.product_id = 'g1'`,
  });
  t.teardown(() => hold.remove());
  const started = await call('POST', '/v1/translate/backfill', { target_locale: 'ar', fields: ['name'] });
  t.equal(started.status, 202);
  await eventually(async () => (await lockWaiters(db)) > 0, 20_000);

  const deleted = await call('POST', '/v1/products/batch', { delete: ['g1'] });
  t.match(deleted.body, { deleted: 1 });
  // The delete's index job (and with it translation's hook) has run before the held item is written.
  const catalog = h.api.deps.queues.get('catalog');
  await eventually(async () => (await catalog.getJobs(['completed'])).some((j) => (j.data.input?.deletes ?? []).includes('g1')), 20_000);

  await hold.release();
  t.equal((await jobDone(call, started.body.job.id)).status, 'succeeded');
  t.same(await db('translation_items').where({ tenant_id: shop.id, product_id: 'g1' }).select('id', 'status'), [], 'no item of the deleted product');
  t.same(
    (await itemsByStatus(call, 'pending')).map((i) => i.product_id),
    ['g0'],
  );
  t.match((await call('GET', '/v1/translate/status')).body, { total_fields: 1, by_status: { pending: 1 } });
});
