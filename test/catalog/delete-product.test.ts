import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

// DELETE /v1/products/{id} takes what derives from the product with it, as a batch delete does
// (README "Stale marking and watch mode": items of deleted products go). It used to remove the
// product from search and the vector store only: its translation items stayed for good, in the
// review queue and the counts, and once approved in the feed and the exports.
const { h } = await setupWithWorkers({ TRANSLATION_PROVIDER: 'none', VOCAB_DEBOUNCE_MS: '200' });
const shop = await h.tenant();
const call = (method: string, path: string, body?: unknown) => h.api.call(method, path, { key: shop.key, body });
await loadProducts(
  h,
  shop.key,
  shop.id,
  ['d0', 'd1', 'd2'].map((id) => ({ id, name: { en: `Copper kettle ${id}` }, price: 1, currency: 'USD' })),
);
const pending = async () =>
  ((await call('GET', '/v1/translate/review?status=pending&limit=200')).body.data as Array<{ product_id: string }>).map((i) => i.product_id).sort();

t.test("a deleted product's translation items go, as with a batch delete", async (t) => {
  const started = await call('POST', '/v1/translate/backfill', { target_locale: 'ar', fields: ['name'] });
  t.equal(started.status, 202);
  await eventually(async () => ['succeeded', 'failed'].includes((await call('GET', `/v1/jobs/${started.body.job.id}`)).body.status), 30_000);
  t.same(await pending(), ['d0', 'd1', 'd2']);

  t.equal((await call('DELETE', '/v1/products/d1')).status, 200);
  t.match((await call('POST', '/v1/products/batch', { delete: ['d2'] })).body, { deleted: 1 });
  const settled = await eventually(async () => {
    const left = await pending();
    return left.length === 1 && left;
  }, 10_000).catch(() => null);
  t.same(settled ?? (await pending()), ['d0'], 'only the kept product has items');
  t.match((await call('GET', '/v1/translate/status?target_locale=ar')).body, { total_fields: 1 });
});
