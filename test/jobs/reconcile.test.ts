import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { waitFor } from '../helpers/wait.js';
import { reconcileJobs } from '../../pipelines/jobs/reconcile-jobs.stage.js';
import { buildGeneration } from '../../pipelines/catalog/build-generation.stage.js';

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

t.test('a reindex row whose queued work vanished starts over and succeeds; an unknown kind fails honestly', async (t) => {
  const { id: tenantId } = await h.tenant();
  // Rows written, their queued work lost.
  const { job: reindex } = await deps.repos.jobs.create(tenantId, 'reindex', { mode: 'full', reason: null }, 'reindex');
  const { job: exported } = await deps.repos.jobs.create(tenantId, 'export', {});
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

t.test('a row whose job is alive is left alone', async (t) => {
  const { id: tenantId } = await h.tenant();
  const { job } = await deps.repos.jobs.create(tenantId, 'reindex', { mode: 'full', reason: null }, 'reindex');
  // Queued for later: alive in BullMQ, not yet run.
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
