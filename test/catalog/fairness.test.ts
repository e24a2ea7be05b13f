import t from 'tap';
import { setup } from '../helpers/harness.js';
import { startTestWorkers, eventually } from '../helpers/workers.js';

// One catalog worker slot, so the order jobs run in is the order the queue hands them out.
const h = await setup({ WORKER_CONCURRENCY: 'catalog=1' });
t.teardown(() => h.close());

t.test("one tenant's big sync does not starve another tenant's small update", async (t) => {
  const big = await h.tenant('big');
  const small = await h.tenant('small');
  for (let b = 0; b < 8; b++) {
    const upsert = Array.from({ length: 500 }, (_, i) => ({ id: `b${b}-${i}`, name: { en: `Bulk item ${b} ${i}` }, price: 1, currency: 'USD' }));
    const res = await h.api.call('POST', '/v1/products/batch', { key: big.key, body: { upsert } });
    t.equal(res.status, 200);
  }
  const res = await h.api.call('POST', '/v1/products/batch', {
    key: small.key,
    body: { upsert: [{ id: 's1', name: { en: 'Small update' }, price: 1, currency: 'USD' }] },
  });
  t.equal(res.status, 200);

  const workers = await startTestWorkers(h.config);
  t.teardown(() => workers.close());
  const { db } = h.api.deps;
  await eventually(async () => (await h.api.deps.repos.products.unindexed(big.id, 1)).length === 0, 60_000);
  const smallAt = (await h.api.deps.repos.products.find(small.id, 's1'))!.indexed_at!.getTime();
  const batches = await db('product_index_state')
    .select(db.raw(`split_part(product_id, '-', 1) AS batch`), db.raw('max(indexed_at) AS at'))
    .where({ tenant_id: big.id })
    .groupBy('batch')
    .orderBy('at');
  const before = batches.filter((b: { at: Date }) => b.at.getTime() < smallAt).length;
  t.ok(before <= 2, `the small tenant's batch ran after ${before} of the big tenant's 8 batches, not after all of them`);
});
