import t from 'tap';
import { setup } from '../helpers/harness.js';
import { startTestWorkers, eventually } from '../helpers/workers.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';
import { familyProducts } from './catalog.js';
import { embedProducts } from '../../pipelines/vectors/embed-products.stage.js';

/**
 * A product deleted while its batch is being embedded: the delete removes its vectors before the
 * embed job's write lands, and that write must not bring the vector back.
 */

const h = await setup();
t.teardown(() => h.close());
const deps = h.api.deps;
const { id: tenantId, key } = await h.tenant('delete race');
const items = familyProducts().slice(0, 20);
// Real workers load the catalog and fill the first vector generation, then stop: the race below runs the stage itself.
const workers = await startTestWorkers(h.config);
if ((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: items } })).status !== 200) throw new Error('load failed');
await eventually(async () => (await deps.vectors.count(tenantId)) === items.length, 60_000, 100);
await workers.close();

const vectorRows = async (id: string) => Number((await deps.db('product_vectors').where({ tenant_id: tenantId, product_id: id }).count({ n: '*' }))[0].n);

t.test('a product deleted while its batch is embedded keeps no vector', async (t) => {
  const id = items[0].id as string;
  const renamed = { ...items[0], name: { en: 'Renamed smartphone' } };
  t.equal((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: [renamed] } })).status, 200);
  // The embed job's vector write for the product waits (as a slow embedding call would) until released.
  const hold = await holdWrites(deps.db, { name: 'hold_vector_write', table: 'product_vectors', on: 'INSERT', when: `NEW.product_id = '${id}'` });
  t.teardown(() => hold.remove());
  const embedding = embedProducts.run({ data: { tenantId, batchId: 'race-update', ids: [id], deletes: [] }, deps } as never);
  await eventually(async () => (await lockWaiters(deps.db)) > 0);
  t.equal((await h.api.call('DELETE', `/v1/products/${id}`, { key })).status, 200);
  // The delete's own batch job ran too, before the held write lands.
  await embedProducts.run({ data: { tenantId, batchId: 'race-delete', ids: [], deletes: [id] }, deps } as never);
  await hold.release();
  await embedding;
  t.equal(await vectorRows(id), 0, 'no vector of the deleted product');
  t.equal(await deps.vectors.count(tenantId), items.length - 1, 'the serving generation holds only stored products');
  t.equal(await vectorRows(items[1].id as string), 1, 'other products keep theirs');
});

t.test("a product deleted and stored again keeps its vector when the delete's job comes last", async (t) => {
  const id = items[2].id as string;
  t.equal((await h.api.call('DELETE', `/v1/products/${id}`, { key })).status, 200);
  t.equal((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: [items[2]] } })).status, 200);
  // The two batches' embed jobs finish out of order (two workers): the new product's first, the delete's after it.
  await embedProducts.run({ data: { tenantId, batchId: 'again-upsert', ids: [id], deletes: [] }, deps } as never);
  t.equal(await vectorRows(id), 1, 'embedded again');
  await embedProducts.run({ data: { tenantId, batchId: 'again-delete', ids: [], deletes: [id] }, deps } as never);
  t.equal(await vectorRows(id), 1, 'the stored product keeps its vector');
  t.equal(await deps.vectors.count(tenantId), items.length - 1, 'every stored product has its vector');
});
