import t from 'tap';
import { setup } from '../helpers/harness.js';
import { canonicalProduct, toStored } from '../../shared/catalog/canonical.js';

// The products repo's indexing bookkeeping (product_index_state), without workers: versions are marked by hand.
const h = await setup();
t.teardown(() => h.close());
const { products } = h.api.deps.repos;
const { db } = h.api.deps;
const item = (id: string, price = 10) => canonicalProduct(toStored({ id, name: { en: `Product ${id}` }, price, currency: 'USD' }));
const version = async (tenantId: string, id: string) => ({ id, updatedAt: (await products.find(tenantId, id))!.updated_at });

t.test('a product is unindexed until its latest version is marked; an older mark never regresses it', async (t) => {
  const { id: tenantId } = await h.tenant();
  await products.writeBatch(tenantId, { upserts: [item('a'), item('b')], deletes: [] });
  t.same((await products.unindexed(tenantId, 10)).sort(), ['a', 'b']);
  t.equal(await products.countUnindexed(tenantId), 2);
  const a1 = await version(tenantId, 'a');
  await products.markIndexed(tenantId, [a1, await version(tenantId, 'b')]);
  t.same(await products.unindexed(tenantId, 10), []);
  const indexedAt = (await products.find(tenantId, 'a'))!.indexed_at;
  t.ok(indexedAt, 'indexed_at shown with the product');

  await new Promise((r) => setTimeout(r, 5));
  const changed = await products.writeBatch(tenantId, { upserts: [item('a', 11)], deletes: [] });
  t.same(changed.changedIds, ['a']);
  t.same(await products.unindexed(tenantId, 10), ['a'], 'a new version is unindexed');
  await products.markIndexed(tenantId, [a1]);
  t.same(await products.unindexed(tenantId, 10), ['a'], 'marking the version read before the change does not count');
  const again = await products.writeBatch(tenantId, { upserts: [item('a', 11), item('b')], deletes: [] });
  t.same([again.changedIds, again.staleIds, again.unchanged], [[], ['a'], 2], 'an unchanged but unindexed product is handed back as stale');

  const a2 = await version(tenantId, 'a');
  await products.markIndexed(tenantId, [a2]);
  await products.markIndexed(tenantId, [a1]);
  t.same(await products.unindexed(tenantId, 10), [], 'a late mark of the older version leaves the newer one indexed');
  const [state] = await db('product_index_state').where({ tenant_id: tenantId, product_id: 'a' });
  t.equal(state.indexed_version.getTime(), a2.updatedAt.getTime());
});

t.test('every way a product goes also drops its index state, so it is never swept as unindexed', async (t) => {
  const { id: tenantId } = await h.tenant();
  const ids = ['d1', 'd2', 'd3', 'd4'];
  await products.writeBatch(tenantId, { upserts: ids.map((id) => item(id)), deletes: [] });
  const deleted = await products.writeBatch(tenantId, { upserts: [], deletes: ['d1'] });
  t.same(deleted.deletedIds, ['d1']);
  t.ok(await products.remove(tenantId, 'd2'));
  await products.writeBatch(tenantId, { upserts: [item('d3')], deletes: [], sync: { id: 's1', complete: true, idleDays: 7 } });
  t.same(await products.unindexed(tenantId, 10), ['d3'], 'd4 went with the completed sync');
  const left = await db('product_index_state').where({ tenant_id: tenantId }).pluck('product_id');
  t.same(left, ['d3']);

  await products.writeBatch(tenantId, { upserts: [item('d1')], deletes: [] });
  t.same((await products.unindexed(tenantId, 10)).sort(), ['d1', 'd3'], 'a product sent again after its delete starts unindexed');
  t.equal((await products.find(tenantId, 'd1'))!.indexed_at, null);

  await db('tenants').where({ id: tenantId }).delete();
  t.equal(Number((await db('product_index_state').where({ tenant_id: tenantId }).count({ n: '*' }))[0].n), 0, 'a deleted tenant leaves no state');
});
