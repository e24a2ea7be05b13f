import t from 'tap';
import { setup } from '../helpers/harness.js';
import { eventually } from '../helpers/workers.js';
import { createDeps } from '../../shared/deps.js';
import { startWorkers } from '../../workers/start.js';
import { STAGES } from '../../workers/registry.js';
import { startEmbed } from '../../shared/vectors/start-embed.js';

/** An embed job canceled while it waits for a catalog load to settle stops there: it trains and stores no embedder model. */

const h = await setup();
const { id: tenantId, key } = await h.tenant();
// Only the embeddings queue has a worker: the stored batch stays unindexed, so the embed job waits for it to settle.
const workerDeps = createDeps(h.config);
const workers = startWorkers(workerDeps, STAGES, { queues: ['embeddings'] });
t.teardown(async () => {
  await workers.close();
  await workerDeps.close();
  await h.close();
});

t.test('cancel during the settle wait: canceled, no model trained', async (t) => {
  const products = Array.from({ length: 30 }, (_, i) => ({ id: `e${i}`, name: { en: `Settle kettle ${i}` }, price: 5 + i, currency: 'USD' }));
  t.equal((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products } })).status, 200);
  const { job } = await startEmbed(h.api.deps, tenantId, 'test');
  const row = () => h.api.call('GET', `/v1/jobs/${job.id}`, { key }).then((r) => r.body);
  await eventually(async () => (await row()).status === 'running', 15_000);
  t.equal((await h.api.call('POST', `/v1/jobs/${job.id}/cancel`, { key })).status, 200);
  const done = await eventually(async () => {
    const r = await row();
    return r.status !== 'running' ? r : null;
  }, 20_000);
  t.equal(done.status, 'canceled');
  const models = await h.api.deps.db('embedder_models').where({ tenant_id: tenantId }).count({ n: '*' }).first();
  t.equal(Number(models!.n), 0, 'no embedder model was trained for a canceled job');
});
