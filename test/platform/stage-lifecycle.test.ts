import t from 'tap';
import { z } from 'zod';
import { UnrecoverableError } from 'bullmq';
import { setup } from '../helpers/harness.js';
import { eventually } from '../helpers/workers.js';
import { defineStage } from '../../shared/platform/queue/define-stage.js';
import { startWorkers } from '../../workers/start.js';

const h = await setup();
const deps = h.api.deps;
const { id: tenantId, key } = await h.tenant();

// A gate the test opens, so it can look at a job while the stage is running.
let release: () => void = () => undefined;
const gate = () => new Promise<void>((resolve) => (release = resolve));
let attempts = 0;

const Data = z.object({ mode: z.enum(['ok', 'flaky', 'fatal', 'gated', 'loop', 'first']), tag: z.string() });
const second = defineStage({
  queue: 'test-jobs',
  name: 'second-step',
  schema: Data,
  jobId: (d) => `second-${d.tag}`,
  async run({ data }) {
    return { second: data.tag };
  },
});
const first = defineStage({
  queue: 'test-jobs',
  name: 'first-step',
  schema: Data,
  jobId: (d) => `first-${d.tag}`,
  attempts: 2,
  async run({ data, progress, next, signal }) {
    if (data.mode === 'gated') {
      const opened = gate();
      await progress(0.5);
      await opened;
    }
    if (data.mode === 'flaky') {
      attempts++;
      throw new Error(`boom ${attempts}`);
    }
    if (data.mode === 'fatal') throw new UnrecoverableError('bad input');
    if (data.mode === 'loop') {
      for (let i = 0; i < 200; i++) {
        await progress(i / 200);
        await new Promise((r) => setTimeout(r, 50));
      }
      return { stopped: false };
    }
    if (data.mode === 'first') {
      await next(second, data);
      return { first: true };
    }
    return { done: data.tag };
  },
});
const workers = startWorkers(deps, [first, second]);
t.teardown(async () => {
  release();
  await workers.close();
  await h.close();
});

async function start(mode: z.infer<typeof Data>['mode'], tag: string) {
  const { job } = await deps.repos.jobs.create(tenantId, 'export', { mode });
  await deps.queues.enqueue(first, { mode, tag }, { jobRowId: job.id });
  return job.id;
}
const row = (id: string) => h.api.call('GET', `/v1/jobs/${id}`, { key }).then((r) => r.body);
const until = (id: string, status: string) => eventually(async () => ((await row(id)).status === status ? row(id) : null), 15_000);

t.test('success: queued -> running with progress -> succeeded with result', async (t) => {
  const id = await start('gated', 'g1');
  t.equal((await row(id)).status === 'queued' || (await row(id)).status === 'running', true);
  const running = await eventually(async () => {
    const r = await row(id);
    return r.status === 'running' && r.progress === 0.5 ? r : null;
  });
  t.ok(running.started_at);
  t.equal(running.finished_at, null);
  release();
  const done = await until(id, 'succeeded');
  t.equal(done.progress, 1);
  t.same(done.result, { done: 'g1' });
  t.ok(done.finished_at);
});

t.test('a two-stage pipeline succeeds only after its last stage', async (t) => {
  const id = await start('first', 'p1');
  const done = await until(id, 'succeeded');
  t.same(done.result, { second: 'p1' }, "the result is the last stage's");
});

t.test('failure: retried, then failed once with the error; unrecoverable fails at once', async (t) => {
  const id = await start('flaky', 'f1');
  const failed = await until(id, 'failed');
  t.equal(attempts, 2, 'ran both attempts');
  t.equal(failed.error, 'boom 2');
  t.equal(await deps.repos.jobs.finish(id, 'failed', { error: 'later' }), false, 'a terminal row is never written again');
  t.equal((await row(id)).error, 'boom 2');
  const fatal = await start('fatal', 'x1');
  t.equal((await until(fatal, 'failed')).error, 'bad input');
});

t.test('cancel: a running job stops at its next progress check; finished jobs answer 409', async (t) => {
  const id = await start('loop', 'c1');
  await eventually(async () => (await row(id)).status === 'running');
  const res = await h.api.call('POST', `/v1/jobs/${id}/cancel`, { key });
  t.equal(res.status, 200);
  const canceled = await until(id, 'canceled');
  t.ok(canceled.finished_at);
  const done = await start('ok', 'o1');
  await until(done, 'succeeded');
  t.equal((await h.api.call('POST', `/v1/jobs/${done}/cancel`, { key })).body.error.code, 'job_finished');
});

t.test('cancel of a queued job: canceled at once and the worker skips it', async (t) => {
  const { job } = await deps.repos.jobs.create(tenantId, 'export', {});
  const res = await h.api.call('POST', `/v1/jobs/${job.id}/cancel`, { key });
  t.equal(res.body.status, 'canceled');
  await deps.queues.enqueue(first, { mode: 'ok', tag: 'q1' }, { jobRowId: job.id });
  const bull = await deps.queues.get('test-jobs').getJob('first-q1');
  await eventually(async () => (await bull!.getState()) === 'completed');
  t.same((await deps.queues.get('test-jobs').getJob('first-q1'))!.returnvalue, { skipped: 'job is no longer live' });
  t.equal((await row(job.id)).status, 'canceled');
});

t.test('job list: filters, cursor pages, bad cursor', async (t) => {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res: { body: { data: Array<{ id: string; kind: string }>; next_cursor: string | null } } = await h.api.call(
      'GET',
      `/v1/jobs?kind=export&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      { key },
    );
    seen.push(...res.body.data.map((j) => j.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  t.equal(new Set(seen).size, seen.length, 'no duplicates across pages');
  t.ok(seen.length >= 6);
  const failed = await h.api.call('GET', '/v1/jobs?status=failed', { key });
  t.ok(failed.body.data.every((j: { status: string }) => j.status === 'failed'));
  t.equal((await h.api.call('GET', '/v1/jobs?cursor=nope', { key })).body.error.code, 'invalid_cursor');
  t.equal((await h.api.call('GET', '/v1/jobs?status=bogus', { key })).status, 400);
});
