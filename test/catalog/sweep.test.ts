import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { waitFor } from '../helpers/wait.js';
import { canonicalProduct, toStored } from '../../shared/catalog/canonical.js';
import { sweepUnindexed } from '../../pipelines/catalog/sweep-unindexed.stage.js';
import { indexProducts } from '../../pipelines/catalog/index-products.stage.js';

// The sweep re-queues what should be searchable but is not: a product stored by an API process
// that died before queueing it, and one whose derived writes a database crash lost.
const { h } = await setupWithWorkers();
const { deps } = h.api;
const item = (id: string, name: string) => canonicalProduct(toStored({ id, name: { en: name }, price: 10, currency: 'USD', in_stock: true, visible: true }));
const found = async (tenantId: string, word: string) => (await deps.engine.search({ tenantId, tokens: [word], offset: 0, limit: 10 })).hits.map((x) => x.id);
const sweep = async (graceMs: number, run: string) => {
  const jobId = await deps.queues.enqueue(sweepUnindexed, { graceMs, limit: 1000, run });
  return waitFor(
    async () => {
      const j = await deps.queues.get('maintenance').getJob(jobId);
      return j?.finishedOn ? j.returnvalue : null;
    },
    20_000,
    'sweep',
  );
};

t.test('lost enqueue and lost derived write are both indexed by the next sweep; fresh changes are left to their batch', async (t) => {
  const { id: tenantId } = await h.tenant();
  // Stored, never queued.
  await deps.repos.products.writeBatch(tenantId, { upserts: [item('p1', 'Wombat lamp')], deletes: [] });
  // Stored and indexed, then the index write is lost.
  await deps.repos.products.writeBatch(tenantId, { upserts: [item('p2', 'Wombat chair')], deletes: [] });
  const p2 = (await deps.repos.products.find(tenantId, 'p2'))!;
  await deps.engine.upsert(tenantId, [], { facetFields: [], locales: ['en'] });
  await deps.repos.products.markIndexed(tenantId, [{ id: 'p2', updatedAt: p2.updated_at }]);
  await deps.db('product_index_state').where({ tenant_id: tenantId, product_id: 'p2' }).update({ indexed_version: null });
  t.same(await found(tenantId, 'wombat'), []);

  t.match(await sweep(60_000, 'fresh'), { products: 0 }, 'within the grace period: the batch that wrote them may still be indexing');
  t.match(await sweep(0, 'late'), { products: 2, tenants: 1, batches: 1 });
  const ids = await waitFor(
    async () => {
      const r = await found(tenantId, 'wombat');
      return r.length === 2 ? r : null;
    },
    20_000,
    'both searchable',
  );
  t.same(ids.sort(), ['p1', 'p2']);
  // The stage marks them indexed just after the engine write that made them searchable.
  t.ok(await waitFor(async () => (await deps.repos.products.countUnindexed(tenantId)) === 0, 20_000, 'marked indexed'), 'and marked indexed');
});

t.test('the sweep takes every product ahead of its index that no live job covers, however young', async (t) => {
  const { id: tenantId } = await h.tenant();
  // Both stored, neither indexed: p3's index job is still queued (delayed), p4's was lost.
  await deps.repos.products.writeBatch(tenantId, { upserts: [item('p3', 'Quokka lamp'), item('p4', 'Quokka chair')], deletes: [] });
  await deps.queues.enqueue(indexProducts, { tenantId, batchId: 'held', ids: ['p3'], deletes: [] }, { delayMs: 60_000 });
  const result = await sweep(0, 'covered');
  t.match(result, { products: 1, queued_elsewhere: 1 }, 'only the product no job will index');
  t.same(
    await waitFor(
      async () => {
        const r = await found(tenantId, 'quokka');
        return r.length ? r : null;
      },
      20_000,
      'p4 searchable',
    ),
    ['p4'],
  );
  t.same(await found(tenantId, 'quokka'), ['p4'], 'p3 waits for its own job');
});
