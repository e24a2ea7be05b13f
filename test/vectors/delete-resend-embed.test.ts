import t from 'tap';
import { startTestWorkers, eventually } from '../helpers/workers.js';
import { familyProducts } from './catalog.js';
import { eachStore } from './each-store.js';
import { embedProducts } from '../../pipelines/vectors/embed-products.stage.js';
import type { VectorStore } from '../../shared/engines/vectors/port.js';
import type { Deps } from '../../shared/deps.js';

/**
 * A product deleted and sent again while the delete's embed job runs: the job found it not stored,
 * and before its removal reaches the vector store the product is stored again and its own embed job
 * writes its vector. The removal must not leave the stored product without a vector. The stage runs
 * here by itself with each batch's job data, on the built-in store and on the fake Qdrant.
 */

await eachStore(async (t, h, name) => {
  const deps = h.api.deps;
  const { id: tenantId, key } = await h.tenant(`delete resend ${name}`);
  const items = familyProducts().slice(0, 12);
  const send = async (upsert: unknown[]) => {
    const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert } });
    if (res.status !== 200) throw new Error(`batch answered ${res.status}`);
  };
  const embed = (batchId: string, ids: string[], deletes: string[], d: Deps = deps) =>
    embedProducts.run({ data: { tenantId, batchId, ids, deletes }, deps: d } as never);
  // From the store itself (the built-in store answers vectorsOf from a copy in memory, reloaded after a notice).
  const hasVector = async (id: string) => (await deps.vectors.versions(tenantId, [id])).has(id);
  // Real workers load the catalog and fill the first generation, then stop: the interleaving below runs the stage itself.
  const workers = await startTestWorkers(h.config);
  await send(items);
  // (Qdrant's first collection and alias are made just after its generation is recorded: a count in between answers 404.)
  await eventually(async () => (await deps.vectors.count(tenantId).catch(() => 0)) === items.length, 60_000, 100).finally(() => workers.close());

  const id = items[3].id as string;
  t.equal((await h.api.call('DELETE', `/v1/products/${id}`, { key })).status, 200, 'deleted');
  t.notOk(await hasVector(id), 'the delete removes the vector at once');
  // Just before the delete job's removal reaches the store, the product is sent again and its batch embedded.
  const store: VectorStore = deps.vectors;
  let between = false;
  const late = Object.assign(Object.create(store) as VectorStore, {
    async remove(tenant: string, ids: string[]) {
      if (!between && ids.includes(id)) {
        between = true;
        await send([items[3]]);
        await embed('between-upsert', [id], []);
        t.ok(await hasVector(id), 'embedded again');
      }
      await store.remove(tenant, ids);
    },
  });
  await embed('between-delete', [], [id], { ...deps, vectors: late });
  t.ok(between, "the re-send ran inside the delete job's removal");
  t.ok(await hasVector(id), "the stored product keeps its vector after the delete's job");
  t.equal(await deps.vectors.count(tenantId), items.length, 'every stored product has its vector');
  t.same((await h.api.call('GET', '/v1/jobs', { key })).body.vector_lag, { pending: 0, oldest_s: null }, 'no product waits for a vector');
});
