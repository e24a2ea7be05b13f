import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { indexContext } from '../../shared/catalog/indexer.js';
import { sweepBuilds } from '../../pipelines/maintenance/sweep-builds.stage.js';
import { docsIn } from '../helpers/indexed.js';

/**
 * The maintenance sweep's safety net: a generation left building by a reindex that finished (its
 * own cleanup never ran: its worker died, its drop failed) goes once it is older than the bound;
 * one whose job still runs, or that began recently, stays. Serving generations are never touched.
 */

const { h } = await setupWithWorkers();
const deps = h.api.deps;
const products = Array.from({ length: 20 }, (_, i) => ({ id: `b${i}`, name: { en: `Sweep lamp ${i}` }, price: 10 + i, currency: 'USD' }));

const generations = (tenantId: string) => deps.db('search_generations').where({ tenant_id: tenantId }).first();
const docs = (tenantId: string, generation: number) => docsIn(deps.db, tenantId, generation);
const found = async (tenantId: string) => (await deps.engine.search({ tenantId, tokens: ['lamp'], offset: 0, limit: 1 })).total;

/**
 * A store with its 20 products served and a generation built beside them by a reindex job in
 * `status` (none: begun by no known job), begun `minutesAgo`.
 */
async function storeWithBuild(status: 'running' | 'canceled' | 'failed' | null, minutesAgo: number) {
  const { id: tenantId, key } = await h.tenant();
  await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products } });
  await eventually(async () => (await found(tenantId)) === 20, 15_000);
  const { active } = await generations(tenantId);
  let owner: string | undefined;
  if (status) {
    const { job } = await deps.repos.jobs.create(tenantId, 'reindex', { mode: 'full' }, 'reindex');
    await deps.repos.jobs.markRunning(job.id);
    if (status !== 'running') await deps.repos.jobs.finish(job.id, status, {});
    owner = job.id;
  }
  const ctx = await indexContext(deps, tenantId);
  const generation = await deps.engine.beginGeneration(tenantId, ctx.settings, owner);
  await deps.engine.writeGeneration(tenantId, generation, ctx.toDocs(await deps.repos.products.page(tenantId, null, products.length)));
  await deps
    .db('search_generations')
    .where({ tenant_id: tenantId })
    .update({ building_since: deps.db.raw(`now() - ? * interval '1 minute'`, [minutesAgo]) });
  return { tenantId, active, generation };
}

async function sweep(run: string) {
  const jobId = await deps.queues.enqueue(sweepBuilds, { olderThanMs: 15 * 60_000, run });
  return eventually(async () => {
    const job = await deps.queues.get('maintenance').getJob(jobId);
    return job?.finishedOn ? (job.returnvalue ?? job.failedReason) : null;
  }, 20_000);
}

t.test('generations left building by finished reindexes go; live or recent ones stay; the serving one is untouched', async (t) => {
  const canceled = await storeWithBuild('canceled', 20);
  const failed = await storeWithBuild('failed', 20);
  const unknown = await storeWithBuild(null, 20);
  const running = await storeWithBuild('running', 20);
  const recent = await storeWithBuild('canceled', 1);
  for (const s of [canceled, failed, unknown, running, recent]) t.equal(await docs(s.tenantId, s.generation), 20, 'a generation was built');

  const first = await sweep('first');
  t.same(
    [...first.dropped].sort((a: { tenantId: string }, b: { tenantId: string }) => a.tenantId.localeCompare(b.tenantId)),
    [canceled, failed, unknown].map((s) => ({ tenantId: s.tenantId, generation: s.generation })).sort((a, b) => a.tenantId.localeCompare(b.tenantId)),
    'the finished jobs’ generations, and the one no job owns, were dropped',
  );
  for (const s of [canceled, failed, unknown]) {
    const row = await generations(s.tenantId);
    t.same([row.active, row.building], [s.active, null], 'the serving generation stays; none is building');
    t.equal(await docs(s.tenantId, s.generation), 0, "the abandoned generation's documents are gone");
    t.equal(await docs(s.tenantId, s.active), 20, 'the serving documents stay');
    t.equal(await found(s.tenantId), 20, 'searches find every product');
  }
  for (const s of [running, recent]) {
    t.equal((await generations(s.tenantId)).building, s.generation, 'a running or recent build stays');
    t.equal(await docs(s.tenantId, s.generation), 20);
  }
  t.same((await sweep('second')).dropped, [], 'a second sweep finds nothing');
});

t.test('dropping a generation never drops the serving one', async (t) => {
  const s = await storeWithBuild('canceled', 0);
  await deps.engine.dropGeneration(s.tenantId, s.active);
  t.equal(await docs(s.tenantId, s.active), 20, 'the serving documents stay');
  t.equal(await found(s.tenantId), 20);
});
