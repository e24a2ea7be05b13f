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
