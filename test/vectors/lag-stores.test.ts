import t from 'tap';
import { startTestWorkers, eventually } from '../helpers/workers.js';
import { familyProducts } from './catalog.js';
import { eachStore } from './each-store.js';
import { embedProducts } from '../../pipelines/vectors/embed-products.stage.js';

/**
 * `vector_lag` in GET /v1/jobs comes from the configured vector store: products are pending until
 * their current version has a vector in the serving generation, on the built-in store and on Qdrant.
 */

await eachStore(async (t, h, name, qdrant) => {
  const deps = h.api.deps;
  const { id: tenantId, key } = await h.tenant(`lag ${name}`);
  const items = familyProducts().slice(0, 12);
  const lag = async () => (await h.api.call('GET', '/v1/jobs', { key })).body.vector_lag;
  const send = async (upsert: unknown[]) => {
    const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert } });
    if (res.status !== 200) throw new Error(`batch answered ${res.status}`);
  };
  // Real workers load the catalog and fill the first generation, then stop: later embeds run the stage itself.
  const workers = await startTestWorkers(h.config);
  await send(items);
  // (Qdrant's first collection and alias are made just after its generation is recorded: a count in between answers 404.)
  await eventually(async () => (await deps.vectors.count(tenantId).catch(() => 0)) === items.length, 60_000, 100).finally(() => workers.close());

  t.same(await lag(), { pending: 0, oldest_s: null }, 'no lag once every product is embedded');
  await send([
    { ...items[0], name: { en: 'Renamed smartphone' } },
    { ...items[1], id: 'new-phone' },
  ]);
  const waiting = await lag();
  t.equal(waiting.pending, 2, 'the updated and the new product wait for their vectors');
  t.type(waiting.oldest_s, 'number', 'with how long the oldest waited');
  await embedProducts.run({ data: { tenantId, batchId: 'lag-update', ids: [items[0].id, 'new-phone'], deletes: [] }, deps } as never);
  t.same(await lag(), { pending: 0, oldest_s: null }, 'no lag once they are embedded');
  if (name !== 'qdrant') return;
  qdrant.fault.status = 503;
  try {
    const down = await h.api.call('GET', '/v1/jobs', { key });
    t.equal(down.status, 200, 'Qdrant down: the jobs are still listed');
    t.ok(Array.isArray(down.body.data) && down.body.data.length > 0, JSON.stringify(down.body).slice(0, 200));
    t.equal(down.body.vector_lag, null, 'the lag is unknown, not made up');
  } finally {
    qdrant.fault.status = 0;
  }
  t.same(await lag(), { pending: 0, oldest_s: null }, 'known again once Qdrant answers');
});
