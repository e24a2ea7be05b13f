import t from 'tap';
import { setup } from '../helpers/harness.js';
import { canonicalProduct, toStored } from '../../shared/catalog/canonical.js';

// review_top_n sends a backfill's most clicked products to review: clicked by the most shoppers, so one
// session clicking one product again and again does not push it ahead of products many shoppers chose.
const h = await setup();
t.teardown(() => h.close());
const { db } = h.api.deps;
const { products, translationItems } = h.api.deps.repos;

t.test('the top products are those clicked by the most sessions, not by the most clicks', async (t) => {
  const tenant = await h.tenant();
  const item = (id: string) => canonicalProduct(toStored({ id, name: { en: `Product ${id}` }, price: 10, currency: 'USD' }));
  await products.writeBatch(tenant.id, { upserts: ['hammered', 'liked', 'quiet'].map(item), deletes: [] });
  const click = (n: number, productId: string, session: string) => ({
    id: `ev_${productId}_${session}_${n}`,
    tenant_id: tenant.id,
    type: 'search_click',
    session,
    product_id: productId,
    position: 1,
    occurred_at: new Date(),
  });
  await db('events').insert([
    ...Array.from({ length: 30 }, (_, n) => click(n, 'hammered', 'one-shopper')),
    ...['a', 'b', 'c'].map((s) => click(0, 'liked', s)),
  ]);
  t.same(await translationItems.topProducts(tenant.id, 2), ['liked', 'hammered']);
  const other = await h.tenant();
  t.same(await translationItems.topProducts(other.id, 2), [], "another store's clicks count for nothing here");
});
