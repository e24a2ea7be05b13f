import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { waitFor } from '../helpers/wait.js';
import { reconcileJobs } from '../../pipelines/jobs/reconcile-jobs.stage.js';
import { buildGeneration } from '../../pipelines/catalog/build-generation.stage.js';
import { finishSync } from '../../pipelines/catalog/finish-sync.stage.js';
import { exportData } from '../../pipelines/tenant-data/export-data.stage.js';
import { searchIds } from '../helpers/catalog.js';

// A jobs row queued or running whose BullMQ job no longer exists (Redis restarted empty, a
// queueing that failed after the row was written) starts over, or fails with a reason.
const { h } = await setupWithWorkers();
const { deps } = h.api;
const reconcile = async (run: string, graceMs = 0) => {
  const jobId = await deps.queues.enqueue(reconcileJobs, { graceMs, run });
  return waitFor(
    async () => {
      const j = await deps.queues.get('maintenance').getJob(jobId);
      return j?.finishedOn ? j.returnvalue : null;
    },
    20_000,
    'reconcile-jobs',
  );
};

t.test('a reindex row whose queued work vanished starts over and succeeds; a kind that cannot start over fails honestly', async (t) => {
  const { id: tenantId } = await h.tenant();
  // Rows written, their queued work lost.
  const { job: reindex } = await deps.repos.jobs.create(tenantId, 'reindex', { mode: 'full', reason: null }, 'reindex');
  const { job: exported } = await deps.repos.jobs.create(tenantId, 'import', {});
  t.match(await reconcile('young', 60_000), { checked: 0 }, 'rows younger than the grace may still be being queued');
  t.match(await reconcile('lost'), { restarted: 1, failed: 1 });
  const done = await waitFor(
    async () => {
      const r = await deps.repos.jobs.get(reindex.id);
      return r?.status === 'succeeded' ? r : null;
    },
    30_000,
    'the reindex succeeding',
  );
  t.equal(done.status, 'succeeded');
  const failed = (await deps.repos.jobs.get(exported.id))!;
  t.equal(failed.status, 'failed');
  t.match(failed.error, /lost/);
});

t.test("a store's export waiting in its queue over the grace is left alone; one whose queued work was lost starts over", async (t) => {
  const { id: tenantId, key } = await h.tenant();
  await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: [{ id: 'x1', name: { en: 'Export kettle' }, price: 5, currency: 'USD' }] } });
  // A data export waiting behind others in the tenant-data queue (delayed here: alive, not yet run), past the grace.
  const { job: waiting } = await deps.repos.jobs.create(tenantId, 'data_export', {});
  // Out of the later subtests' way.
  await deps.queues
    .get(exportData.queue)
    .add(
      exportData.name,
      { input: { tenantId, jobRowId: waiting.id }, jobRowId: waiting.id },
      { jobId: `export-data-${tenantId}-${waiting.id}`, delay: 60_000 },
    );
  // A catalog export whose queued work was lost (Redis restarted empty).
  const { job: lost } = await deps.repos.jobs.create(tenantId, 'export', { format: 'jsonl' });
  t.match(await reconcile('exports'), { restarted: 1, failed: 0 }, 'the lost one restarted, the waiting one left alone');
  t.equal((await deps.repos.jobs.get(waiting.id))!.status, 'queued', 'the waiting export is not failed');
  const done = await waitFor(
    async () => {
      const r = await deps.repos.jobs.get(lost.id);
      return r && ['succeeded', 'failed'].includes(r.status) ? r : null;
    },
    30_000,
    'the lost export finishing',
  );
  t.equal(done.status, 'succeeded', `the lost export ran again (${done.error ?? ''})`);
  t.ok(done.result?.download_url, 'with its download link');
  // Out of the later subtests' way.
  await deps.queues
    .get(exportData.queue)
    .getJob(`export-data-${tenantId}-${waiting.id}`)
    .then((j) => j?.remove());
  await deps.repos.jobs.finish(waiting.id, 'canceled', {});
});

t.test('a row whose job is alive is left alone', async (t) => {
  const { id: tenantId } = await h.tenant();
  const { job } = await deps.repos.jobs.create(tenantId, 'reindex', { mode: 'full', reason: null }, 'reindex');
  // Queued for later: alive in BullMQ, not yet run.
  // Out of the later subtests' way.
  await deps.queues
    .get(buildGeneration.queue)
    .add(buildGeneration.name, { input: { tenantId, jobRowId: job.id, mode: 'full' }, jobRowId: job.id }, { jobId: `reindex-${job.id}`, delay: 60_000 });
  t.match(await reconcile('alive'), { restarted: 0, failed: 0 });
  t.equal((await deps.repos.jobs.get(job.id))!.status, 'queued');
});

t.test("a row whose last write was lost while its BullMQ job is kept finished starts over (the job's id no longer swallows the restart)", async (t) => {
  const { id: tenantId } = await h.tenant();
  // An older row whose parameters can no longer start its first stage fails alone, before the reindex is looked at.
  const { job: mining } = await deps.repos.jobs.create(tenantId, 'synonym_mining', { days: 'many' });
  const { job } = await deps.repos.jobs.create(tenantId, 'reindex', { mode: 'full', reason: null }, 'reindex');
  // The first stage's job fails for good (kept 7 days under its id) ...
  const queue = deps.queues.get(buildGeneration.queue);
  await queue.add(
    buildGeneration.name,
    { input: { tenantId, jobRowId: job.id, mode: 'bogus' }, jobRowId: job.id },
    { jobId: `reindex-${job.id}`, removeOnFail: false },
  );
  await waitFor(async () => (await queue.getJob(`reindex-${job.id}`))?.finishedOn, 20_000, 'the job failing');
  // ... and the row's final write is lost (the database was down at that moment): it still says running.
  await deps.db('jobs').where({ id: job.id }).update({ status: 'running', error: null, finished_at: null });
  t.match(await reconcile('held'), { restarted: 1, failed: 1 });
  t.match(await deps.repos.jobs.get(mining.id), { status: 'failed', error: /could not start over/ });
  const done = await waitFor(
    async () => {
      const r = await deps.repos.jobs.get(job.id);
      return r && ['succeeded', 'failed', 'canceled'].includes(r.status) ? r : null;
    },
    30_000,
    'the reindex ending',
  );
  t.equal(done.status, 'succeeded', 'the reindex ran again');
});

t.test('a sync row whose finish-sync job is alive on the catalog queue is left alone (that queue is not read whole)', async (t) => {
  const { id: tenantId } = await h.tenant();
  const { job } = await deps.repos.jobs.create(tenantId, 'sync', { sync_id: 'alive-1' }, 'sync-alive-1');
  // Out of the later subtests' way.
  await deps.queues
    .get(finishSync.queue)
    .add(finishSync.name, { input: { tenantId, syncId: 'alive-1', jobRowId: job.id }, jobRowId: job.id }, { jobId: `finish-sync-${job.id}`, delay: 60_000 });
  t.match(await reconcile('sync-alive'), { restarted: 0, failed: 0 });
  t.equal((await deps.repos.jobs.get(job.id))!.status, 'queued', 'not failed as lost');
});

t.test("a sync row whose queued work was lost starts over from the sync's checkpoint", async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const product = (id: string, name = `Product ${id}`) => ({ id, name: { en: name }, price: 10, currency: 'USD' });
  const upsert = [product('a0'), product('k1', 'quokka lamp'), product('s1'), product('z1')];
  t.equal((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert } })).status, 200);
  await waitFor(async () => (await searchIds(h, key)('quokka')).includes('k1'), 20_000, 'k1 searchable');
  // A cleanup stopped after the page that ended at 'm' committed (5 products deleted so far, k1 last), before k1 left search.
  await deps
    .db('products')
    .where({ tenant_id: tenantId })
    .update({ updated_at: deps.db.raw(`now() - interval '1 hour'`) });
  await deps.db('products').where({ tenant_id: tenantId, id: 'k1' }).delete();
  await deps.db('product_syncs').insert({
    tenant_id: tenantId,
    sync_id: 'lost-1',
    started_at: deps.db.raw(`now() - interval '10 minutes'`),
    completed_at: deps.db.raw(`now() - interval '5 minutes'`),
    batches: 2,
    cleanup_after: 'm',
    cleanup_deleted: 5,
    cleanup_removing: ['k1'],
  });
  await deps.db('product_sync_items').insert({ tenant_id: tenantId, sync_id: 'lost-1', product_id: 's1' });
  const { job } = await deps.repos.jobs.create(tenantId, 'sync', { sync_id: 'lost-1' }, 'sync-lost-1');

  t.match(await reconcile('sync-lost'), { restarted: 1, failed: 0 });
  const done = await waitFor(
    async () => {
      const r = await deps.repos.jobs.get(job.id);
      return r && ['succeeded', 'failed', 'canceled'].includes(r.status) ? r : null;
    },
    30_000,
    'the sync job ending',
  );
  t.match(done, { status: 'succeeded', result: { deleted: 6 } }, "the earlier run's 5 and z1");
  t.same(await deps.db('products').where({ tenant_id: tenantId }).orderBy('id').pluck('id'), ['a0', 's1'], 'a0, before the checkpoint, was not walked again');
  t.equal(Number((await deps.db('product_sync_items').where({ tenant_id: tenantId }).count({ n: '*' }))[0].n), 0, 'the seen set is gone');
  t.match(await deps.db('product_syncs').where({ tenant_id: tenantId, sync_id: 'lost-1' }).first(), { cleanup_after: null, cleanup_removing: null });
  await waitFor(async () => !(await searchIds(h, key)('quokka')).includes('k1'), 20_000, 'k1, deleted by the earlier run, out of search');
});
