import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS } from './fixtures.js';

// A store that opted into a write grace: suggest previews, like results, keep answering for that
// long after a catalog write while they are refreshed, instead of every write sending the next
// suggests to the engine.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200', SEARCH_CACHE_WRITE_GRACE_MS: '5000' });
const { id, key } = await h.tenant('grace');
await loadProducts(h, key, id, PRODUCTS);
const previews = async (q: string) =>
  ((await h.api.call('GET', `/v1/suggest?q=${encodeURIComponent(q)}`, { key })).body as { products: Array<{ id: string; name: Record<string, string> }> })
    .products;

t.test('a write keeps the previews answering while one refresh brings the new ones', async (t) => {
  const before = await previews('thinkpad');
  t.same(
    before.map((p) => p.id),
    ['lap1'],
  );
  const lookups = () => h.api.deps.suggest.previews.size().entries;
  const entries = lookups();
  const res = await h.api.call('POST', '/v1/products/batch', {
    key,
    body: { upsert: [{ ...PRODUCTS[0], name: { en: 'Lenovo ThinkPad X1 Carbon Gen 11 laptop' } }] },
  });
  t.equal(res.status, 200);
  await eventually(async () => (await h.api.deps.repos.products.countUnindexed(id)) === 0, 20_000);
  t.equal(lookups(), entries, 'the write kept the cached previews (without a grace it drops them)');
  const renamed = await eventually(async () => {
    const now = await previews('thinkpad');
    return now[0]?.name.en?.includes('Gen 11') ? now : null;
  }, 10_000);
  t.equal(renamed[0].id, 'lap1', 'the refreshed preview has the new name');
});

t.test('a deleted product leaves the previews once refreshed', async (t) => {
  t.same(
    (await previews('hp pavilion')).map((p) => p.id),
    ['lap2'],
  );
  const res = await h.api.call('POST', '/v1/products/batch', { key, body: { delete: ['lap2'] } });
  t.equal(res.status, 200);
  const gone = await eventually(async () => ((await previews('hp pavilion')).length === 0 ? true : null), 10_000);
  t.ok(gone, 'no preview of it within the grace and a refresh');
});
