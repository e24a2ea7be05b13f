import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { indexContext } from '../../shared/catalog/indexer.js';
import { swapGeneration } from '../../pipelines/catalog/swap-generation.stage.js';
import { docsIn } from '../helpers/indexed.js';

/** A reindex canceled after its build finished and before its swap ran leaves no half-served generation behind. */

const { h } = await setupWithWorkers();
const deps = h.api.deps;
const { id: tenantId, key } = await h.tenant();
const products = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, name: { en: `Cancel lamp ${i}` }, price: 10 + i, currency: 'USD' }));
await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products } });
await eventually(async () => (await deps.engine.search({ tenantId, tokens: ['lamp'], offset: 0, limit: 1 })).total === 20, 15_000);
const generations = () => deps.db('search_generations').where({ tenant_id: tenantId }).first();
const docs = (generation: number) => docsIn(deps.db, tenantId, generation);

t.test('the swap of a canceled reindex drops the built generation: the job says canceled, writes stop going to it', async (t) => {
  const before = await generations();
  // Where the build stage leaves a reindex: a generation built beside the serving one, the swap queued next.
  const { job } = await deps.repos.jobs.create(tenantId, 'reindex', { mode: 'full' }, 'reindex');
  await deps.repos.jobs.markRunning(job.id);
  const ctx = await indexContext(deps, tenantId);
  const generation = await deps.engine.beginGeneration(tenantId, ctx.settings);
  // The build's work for this store: its 20 products are one page.
  const stored = await deps.repos.products.page(tenantId, null, products.length);
  await deps.engine.writeGeneration(tenantId, generation, ctx.toDocs(stored));
  t.equal(await docs(generation), 20, 'the generation was built');
  // The cancel comes after the build's last check.
  t.equal((await h.api.call('POST', `/v1/jobs/${job.id}/cancel`, { key })).status, 200);
  await deps.queues.enqueue(swapGeneration, { tenantId, jobRowId: job.id, generation, documents: 20 }, { jobRowId: job.id });
  const done = await eventually(async () => {
    const row = (await h.api.call('GET', `/v1/jobs/${job.id}`, { key })).body;
    return row.status !== 'running' ? row : null;
  }, 15_000);
  t.equal(done.status, 'canceled');
  // The row ends canceled first (so one undo runs, the one that ended it), then the undo drops the generation.
  const after = await eventually(async () => {
    const row = await generations();
    return row.building === null ? row : null;
  }, 15_000).catch(() => generations());
  t.same([after.active, after.building], [before.active, null], 'the serving generation stays; none is being built');
  t.equal(await docs(generation), 0, "the canceled generation's documents are gone");
  await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: [{ ...products[0], name: { en: 'Cancel lamp renamed' } }] } });
  await eventually(async () => (await deps.engine.search({ tenantId, tokens: ['renamed'], offset: 0, limit: 1 })).total === 1, 15_000);
  t.equal(await docs(generation), 0, 'a later write goes to the serving generation alone');
  t.equal((await deps.engine.search({ tenantId, tokens: ['lamp'], offset: 0, limit: 1 })).total, 20, 'searches still find every product');
});
