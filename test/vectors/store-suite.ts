import type { Test } from 'tap';
import type { VectorStore, VectorPayload } from '../../shared/engines/vectors/port.js';

const unit = (xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};
const payload = (cat: string, price: number, extra: Partial<VectorPayload> = {}): VectorPayload => ({
  categoryIds: [cat],
  brand: 'B',
  price,
  inStock: true,
  visible: true,
  ...extra,
});

/** The behaviour every VectorStore adapter must have; `refresh` lets in-memory adapters see writes. */
export async function storeSuite(t: Test, store: VectorStore, a: string, b: string, refresh: (tenantId: string) => Promise<void>) {
  const g1 = await store.beginGeneration(a, 'catalog-v1', 3);
  t.equal(g1, 1, 'the first generation serves at once');
  await store.upsert(a, g1, [
    { id: 'p1', vector: unit([1, 0, 0]), payload: payload('c1', 10) },
    { id: 'p2', vector: unit([0.9, 0.1, 0]), payload: payload('c1', 50) },
    { id: 'p3', vector: unit([0, 1, 0]), payload: payload('c2', 10) },
    { id: 'p4', vector: unit([0.95, 0, 0.05]), payload: payload('c1', 10, { visible: false }) },
  ]);
  await store.beginGeneration(b, 'catalog-v1', 3);
  await store.upsert(b, 1, [{ id: 'q1', vector: unit([1, 0, 0]), payload: payload('c1', 10) }]);
  await refresh(a);
  await refresh(b);
  await t.rejects(store.upsert(a, g1, [{ id: 'bad', vector: unit([1, 0]), payload: payload('c1', 1) }]), 'dimensions checked');

  t.same(
    (await store.nearest(a, unit([1, 0, 0]), 10)).map((h) => h.id),
    ['p1', 'p2', 'p3'],
    'cosine order, hidden products left out',
  );
  t.same(
    (await store.nearest(a, unit([1, 0, 0]), 10, { categoryIds: ['c2'] })).map((h) => h.id),
    ['p3'],
    'category filter first',
  );
  t.same(
    (await store.nearest(a, unit([1, 0, 0]), 10, { price: { gte: 20 } })).map((h) => h.id),
    ['p2'],
    'price filter',
  );
  t.same(
    (await store.nearest(a, unit([1, 0, 0]), 1, { exclude: ['p1'] })).map((h) => h.id),
    ['p2'],
    'exclude',
  );
  t.same(
    (await store.nearest(b, unit([1, 0, 0]), 10)).map((h) => h.id),
    ['q1'],
    'tenant isolation',
  );
  t.equal(await store.count(a), 4);
  const v = await store.vectorsOf(a, ['p3', 'nope']);
  t.same([...v.keys()], ['p3']);
  t.ok(Math.abs(v.get('p3')![1] - 1) < 1e-6);

  const g2 = await store.beginGeneration(a, 'catalog-v2', 2);
  t.equal(g2, 2);
  t.equal((await store.generations(a)).building?.embedderId, 'catalog-v2');
  await store.upsert(a, g2, [
    { id: 'p1', vector: unit([1, 0]), payload: payload('c1', 10) },
    { id: 'p3', vector: unit([0, 1]), payload: payload('c2', 10) },
  ]);
  t.same((await store.nearest(a, unit([1, 0, 0]), 10)).map((h) => h.id).length, 3, 'the old generation serves while the new one builds');
  await store.remove(a, ['p3']);
  await store.activate(a, g2);
  await refresh(a);
  const gens = await store.generations(a);
  t.same(gens.active, { generation: 2, embedderId: 'catalog-v2', dims: 2 });
  t.equal(gens.building, null);
  t.same(
    (await store.nearest(a, unit([0, 1]), 10)).map((h) => h.id),
    ['p1'],
    'new generation serves; a delete reached it',
  );
  t.equal(await store.count(a), 1);
  t.same(
    (await store.nearest(b, unit([1, 0, 0]), 10)).map((h) => h.id),
    ['q1'],
    'the other store untouched',
  );

  // Two embed jobs of one product finishing out of order: the newer product version stays.
  await store.upsert(b, 1, [{ id: 'q2', vector: unit([0, 1, 0]), payload: payload('c1', 10), version: 2000 }]);
  await store.upsert(b, 1, [
    { id: 'q2', vector: unit([0, 0, 1]), payload: payload('c1', 10, { visible: false }), version: 1000 },
    { id: 'q3', vector: unit([0, 0, 1]), payload: payload('c1', 10), version: 1000 },
    { id: 'q1', vector: unit([0, 1, 0]), payload: payload('c1', 10), version: 3000 },
  ]);
  await refresh(b);
  const kept = await store.vectorsOf(b, ['q1', 'q2', 'q3']);
  t.ok(Math.abs(kept.get('q2')![1] - 1) < 1e-6, 'an older product version never overwrites a newer one');
  t.ok(Math.abs(kept.get('q1')![1] - 1) < 1e-6, 'a newer version replaces an older one in the same write');
  t.ok(kept.has('q3'), 'a new product in the same write is stored');
  t.same(
    Object.fromEntries(await store.versions(b, ['q3', 'q2', 'q1', 'nope'])),
    { q1: 3000, q2: 2000, q3: 1000 },
    'the stored version of each product with a vector',
  );
  t.same(
    (await store.nearest(b, unit([0, 1, 0]), 2)).map((h) => h.id),
    ['q1', 'q2'],
    "the newer version's payload stays (still visible)",
  );
  await store.dropTenant(a);
  t.equal((await store.generations(a)).active, null);
}
