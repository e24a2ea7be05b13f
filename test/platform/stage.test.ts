import t from 'tap';
import { z } from 'zod';
import { UnrecoverableError, Worker } from 'bullmq';
import { setup } from '../helpers/harness.js';
import { deferred, waitFor, type Deferred } from '../helpers/wait.js';
import { defineStage } from '../../shared/platform/queue/define-stage.js';
import { startWorkers } from '../../workers/start.js';
import type { JobRow } from '../../shared/jobs/jobs.repo.js';

// The job machinery (defineStage -> Queues.enqueue -> real BullMQ Worker -> runStage -> jobs row
// -> /v1/jobs) with stages defined here, so every path is driven on purpose.
const h = await setup();
const deps = h.api.deps;
const { id: tenantId, key } = await h.tenant();
const Q = 'stage-test';
const queue = deps.queues.get(Q);

// Gates the test opens to hold a stage at a known point; counts of stage bodies entered.
const gates = new Map<string, Deferred<void>>();
const gate = (tag: string) => gates.get(tag) ?? gates.set(tag, deferred()).get(tag)!;
const runs = new Map<string, number>();
const ran = (name: string, tag: string) => runs.get(`${name}/${tag}`) ?? 0;
const seen = new Map<string, unknown>();

const Data = z.object({
  mode: z.enum(['ok', 'gated', 'pipe', 'flaky', 'fatal', 'spin-signal', 'spin-progress', 'deaf', 'limited']),
  tag: z.string().regex(/^[a-z0-9-]+$/),
});
type Mode = z.infer<typeof Data>['mode'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = (name: string, tag: string) => runs.set(`${name}/${tag}`, ran(name, tag) + 1).get(`${name}/${tag}`)!;

const second = defineStage({
  queue: Q,
  name: 'second',
  schema: Data,
  jobId: (d) => `second-${d.tag}`,
  attempts: 1,
  async run({ data }) {
    count('second', data.tag);
    await gate(data.tag).promise;
    return { second: data.tag };
  },
});

const single = defineStage({
  queue: Q,
  name: 'single',
  schema: Data,
  jobId: (d) => `single-${d.tag}`,
  attempts: 1,
  async run({ data }) {
    // A rate-limited attempt is not a failed one: BullMQ puts the job back without using an attempt.
    if (count('single', data.tag) === 1) {
      await queue.rateLimit(50);
      throw Worker.RateLimitError();
    }
    return { after: 'rate limit' };
  },
});

const work = defineStage({
  queue: Q,
  name: 'work',
  schema: Data,
  jobId: (d) => `work-${d.tag}`,
  attempts: 2,
  async run({ data, progress, next, signal, jobRowId }) {
    const n = count('work', data.tag);
    switch (data.mode) {
      case 'ok':
        return { done: data.tag };
      case 'gated':
        await progress(0.5);
        await gate(data.tag).promise;
        return { done: data.tag };
      case 'pipe':
        await next(second, { mode: 'ok', tag: data.tag });
        return { first: data.tag };
      case 'flaky':
        if (n === 2) seen.set(data.tag, await deps.repos.jobs.get(jobRowId!));
        throw new Error(`boom ${n}`);
      case 'fatal':
        throw new UnrecoverableError('bad input');
      case 'spin-signal': {
        // Checks only the signal: cancellation reaches it through run-stage's poll of the row.
        const until = Date.now() + 30_000;
        while (!signal.aborted && Date.now() < until) await sleep(20);
        seen.set(data.tag, signal.aborted);
        signal.throwIfAborted();
        return { aborted: false };
      }
      case 'deaf':
        // Never looks at its signal or reports progress: a cancel cannot stop it.
        await gate(data.tag).promise;
        return { done: data.tag };
      case 'spin-progress':
        // Checks nothing itself: progress() throws once the job is canceled.
        try {
          for (let i = 0; i < 1500; i++) {
            await progress(i / 1500);
            await sleep(20);
          }
        } finally {
          seen.set(data.tag, signal.aborted);
        }
        return { aborted: false };
      default:
        throw new Error(`unexpected mode ${data.mode}`);
    }
  },
});

const workers = startWorkers(deps, [work, second, single]);
await Promise.all(workers.workers.map((w) => w.waitUntilReady()));
t.teardown(async () => {
  for (const g of gates.values()) g.resolve();
  await queue.resume();
  await workers.close();
  await h.close();
});

const api = (path: string, k = key) => h.api.call('GET', path, { key: k });
const row = async (id: string) => (await api(`/v1/jobs/${id}`)).body;
const cancel = (id: string) => h.api.call('POST', `/v1/jobs/${id}/cancel`, { key });
async function untilStatus(id: string, status: string) {
  let last: { status?: string; error?: string | null } = {};
  return waitFor(
    async () => ((last = await row(id)).status === status ? last : null),
    20_000,
    () => `job ${id} ${status} (is ${last.status}, error ${last.error})`,
  ) as Promise<any>;
}
const bullState = (jobId: string) => waitFor(async () => (await queue.getJob(jobId))?.getState(), 5_000, `bull job ${jobId}`);
const untilBull = (jobId: string, state: string) =>
  waitFor(async () => ((await queue.getJob(jobId).then((j) => j?.getState())) === state ? queue.getJob(jobId) : null), 20_000, `bull job ${jobId} ${state}`);

async function start(mode: Mode, tag: string, stage = work) {
  const { job } = await deps.repos.jobs.create(tenantId, 'export', { mode, tag });
  await deps.queues.enqueue(stage, { mode, tag }, { jobRowId: job.id });
  return job.id;
}

t.test('success: queued -> running (progress visible mid-run) -> succeeded', async (t) => {
  const { job } = await deps.repos.jobs.create(tenantId, 'export', { mode: 'gated' });
  const queued = await row(job.id);
  t.match(queued, { id: job.id, kind: 'export', status: 'queued', progress: 0, started_at: null, finished_at: null, result: null, error: null });

  await deps.queues.enqueue(work, { mode: 'gated', tag: 'a1' }, { jobRowId: job.id });
  const running = await waitFor(
    async () => {
      const r = await row(job.id);
      return r.status === 'running' && r.progress === 0.5 ? r : null;
    },
    20_000,
    'running at 0.5',
  );
  t.ok(running.started_at, 'started_at set once running');
  t.equal(running.finished_at, null);
  t.equal((await queue.getJob('work-a1'))!.progress, 0.5, 'BullMQ sees the same progress');

  gate('a1').resolve();
  const done = await untilStatus(job.id, 'succeeded');
  t.equal(done.progress, 1);
  t.same(done.result, { done: 'a1' });
  t.equal(done.error, null);
  t.equal(done.started_at, running.started_at, 'started_at is not moved by the finish');
  t.ok(Date.parse(done.finished_at) >= Date.parse(done.started_at) && Date.parse(done.started_at) >= Date.parse(done.created_at));
  t.equal(ran('work', 'a1'), 1);
});

t.test('a two-stage pipeline stays running after stage 1 and succeeds after stage 2', async (t) => {
  const id = await start('pipe', 'p1');
  await untilBull('work-p1', 'completed');
  await waitFor(() => ran('second', 'p1') === 1, 20_000, 'stage 2 entered');
  const between = await row(id);
  t.equal(between.status, 'running', 'stage 1 done, stage 2 running: the row is still running');
  t.equal(between.finished_at, null);
  gate('p1').resolve();
  const done = await untilStatus(id, 'succeeded');
  t.same(done.result, { second: 'p1' }, "the row's result is the last stage's");
});

t.test('an ordinary error is retried, then the row fails once with the last message', async (t) => {
  const id = await start('flaky', 'f1');
  const failed = await untilStatus(id, 'failed');
  t.equal(ran('work', 'f1'), 2, 'both attempts ran');
  const before = seen.get('f1') as JobRow;
  t.equal(before.status, 'running', 'the first failed attempt left the row running');
  t.equal(before.error, null, 'and wrote no error');
  t.equal(failed.error, 'boom 2');
  t.ok(failed.finished_at);
  // The row is failed inside the last attempt; BullMQ moves the job to failed just after it.
  t.ok(await untilBull('work-f1', 'failed'), 'BullMQ failed the job too');

  t.equal(await deps.repos.jobs.finish(id, 'failed', { error: 'later' }), false, 'a later finish changes nothing');
  t.equal(await deps.repos.jobs.finish(id, 'succeeded', { result: { late: true } }), false);
  const after = await row(id);
  t.equal(after.error, 'boom 2');
  t.equal(after.status, 'failed');
  t.equal(after.finished_at, failed.finished_at);
});

t.test('UnrecoverableError fails at once, without a retry', async (t) => {
  const id = await start('fatal', 'u1');
  const failed = await untilStatus(id, 'failed');
  t.equal(failed.error, 'bad input');
  const bull = await untilBull('work-u1', 'failed');
  t.equal(bull!.attemptsMade, 1, 'one attempt of the two allowed');
  t.equal(ran('work', 'u1'), 1);
});

t.test('job data that fails the schema in the worker fails the row with the validation message', async (t) => {
  const { job } = await deps.repos.jobs.create(tenantId, 'export', {});
  // Bypasses Queues.enqueue (which validates) the way an old producer or a hand-made job would.
  await queue.add('work', { input: { mode: 'explode', tag: 'v1' }, jobRowId: job.id }, { jobId: 'work-v1', attempts: 2 });
  const failed = await untilStatus(job.id, 'failed');
  t.match(failed.error, /^invalid job data for work: mode /);
  t.equal((await untilBull('work-v1', 'failed'))!.attemptsMade, 1, 'not retried');
  t.equal(ran('work', 'v1'), 0, 'the stage body never ran');
  await t.rejects(deps.queues.enqueue(work, { mode: 'explode', tag: 'v2' } as never), /invalid data for work/, 'enqueue validates');
});

t.test('a job no stage handles fails its row instead of leaving it queued', async (t) => {
  const { job } = await deps.repos.jobs.create(tenantId, 'export', {});
  await queue.add('no-such-stage', { input: {}, jobRowId: job.id }, { jobId: 'orphan-1', attempts: 3 });
  const failed = await untilStatus(job.id, 'failed');
  t.match(failed.error, /no stage named no-such-stage/);
});

t.test('a job BullMQ fails without running it (stalled too often) fails its row', async (t) => {
  await queue.pause();
  const { job } = await deps.repos.jobs.create(tenantId, 'export', {});
  await deps.queues.enqueue(work, { mode: 'ok', tag: 's1' }, { jobRowId: job.id });
  // What BullMQ's stalled checker does once a job exceeds maxStalledCount: mark a deferred failure
  // and put it back in the wait list; the next worker fails it without calling the processor.
  await deps.redis.hset(`${h.config.queuePrefix}:${Q}:work-s1`, 'defa', 'job stalled more than allowable limit');
  await queue.resume();
  const failed = await untilStatus(job.id, 'failed');
  t.equal(failed.error, 'job stalled more than allowable limit');
  t.ok(failed.finished_at);
  t.equal(ran('work', 's1'), 0);
});

t.test('a rate-limited attempt does not fail the row', async (t) => {
  const id = await start('limited', 'r1', single);
  const done = await untilStatus(id, 'succeeded');
  t.same(done.result, { after: 'rate limit' });
  t.equal(ran('single', 'r1'), 2);
});

t.test('cancel a queued job: canceled at once, and the worker skips it', async (t) => {
  await queue.pause();
  const { job } = await deps.repos.jobs.create(tenantId, 'export', {});
  await deps.queues.enqueue(work, { mode: 'ok', tag: 'q1' }, { jobRowId: job.id });
  t.equal(await bullState('work-q1'), 'waiting', 'the job is in the queue');
  const res = await cancel(job.id);
  t.equal(res.status, 200);
  t.equal(res.body.status, 'canceled');
  t.ok(res.body.finished_at);
  await queue.resume();
  const bull = await untilBull('work-q1', 'completed');
  t.same(bull!.returnvalue, { skipped: 'job is no longer live' });
  t.equal(ran('work', 'q1'), 0, 'the stage body never ran');
  t.equal((await row(job.id)).status, 'canceled');
});

for (const mode of ['spin-signal', 'spin-progress'] as const) {
  t.test(`cancel a running job that ${mode === 'spin-signal' ? 'checks its signal' : 'reports progress'}: it stops and the row is canceled`, async (t) => {
    const tag = `c-${mode}`;
    const id = await start(mode, tag);
    await waitFor(async () => (await row(id)).status === 'running' && ran('work', tag) === 1, 20_000, 'running');
    const res = await cancel(id);
    t.equal(res.status, 200);
    t.equal(res.body.status, 'running', 'a running job is asked to stop, not stopped');
    const canceled = await untilStatus(id, 'canceled');
    t.ok(canceled.finished_at);
    t.equal(canceled.result, null);
    t.equal(canceled.error, null);
    t.equal(seen.get(tag), true, 'the stage saw the abort and returned early');
    t.equal((await cancel(id)).body.status, 'canceled', 'canceling again is harmless');
  });
}

t.test('a cancel that comes too late for a stage that never checks: the work is done and the row says succeeded', async (t) => {
  const id = await start('deaf', 'deaf1');
  await waitFor(async () => (await row(id)).status === 'running' && ran('work', 'deaf1') === 1, 20_000, 'running');
  t.equal((await cancel(id)).body.status, 'running');
  // Past run-stage's next poll of the row: the abort has fired, unheard.
  await sleep(1500);
  gate('deaf1').resolve();
  const done = await untilStatus(id, 'succeeded');
  t.same(done.result, { done: 'deaf1' });
});

t.test('a job id still held for another job row is refused loudly, the same row may add it again', async (t) => {
  const id = await start('ok', 'held1');
  await untilStatus(id, 'succeeded');
  const { job: other } = await deps.repos.jobs.create(tenantId, 'export', {});
  await t.rejects(deps.queues.enqueue(work, { mode: 'ok', tag: 'held1' }, { jobRowId: other.id }), /held by job row/);
  await t.resolves(deps.queues.enqueue(work, { mode: 'ok', tag: 'held1' }, { jobRowId: id }), 'a re-run handing on again is a harmless no-op');
});

t.test('cancel a finished job: 409 job_finished; unknown job: 404', async (t) => {
  const ok = await start('ok', 'o1');
  await untilStatus(ok, 'succeeded');
  const res = await cancel(ok);
  t.equal(res.status, 409);
  t.equal(res.body.error.code, 'job_finished');
  t.equal((await row(ok)).status, 'succeeded');
  const bad = await start('fatal', 'o2');
  await untilStatus(bad, 'failed');
  t.equal((await cancel(bad)).status, 409);
  t.equal((await cancel('job_doesnotexist00')).status, 404);
});

t.test('list: kind and status filters, cursor pages without loss or duplicates', async (t) => {
  const other = await h.tenant('List store');
  const jobs = deps.repos.jobs;
  const wanted: string[] = [];
  for (let i = 0; i < 5; i++) {
    const { job } = await jobs.create(other.id, 'export', { i });
    await jobs.markRunning(job.id);
    await jobs.finish(job.id, 'succeeded', { result: { i } });
    wanted.push(job.id);
  }
  await jobs.create(other.id, 'export', {}); // queued export
  const imp = (await jobs.create(other.id, 'import', {})).job; // succeeded import
  await jobs.finish(imp.id, 'succeeded', {});

  async function pages(query: string) {
    const out: Array<Array<{ id: string; kind: string; status: string; created_at: string }>> = [];
    let cursor: string | null = null;
    do {
      const res = await api(`/v1/jobs?${query}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, other.key);
      t.equal(res.status, 200);
      out.push(res.body.data);
      cursor = res.body.next_cursor;
      if (out.length > 10) throw new Error('cursor does not end');
    } while (cursor);
    return out;
  }

  const got = await pages('kind=export&status=succeeded');
  t.same(
    got.map((p) => p.length),
    [2, 2, 1],
    'limit 2 over 5 rows: three pages, the last ends with next_cursor null',
  );
  const ids = got.flat().map((j) => j.id);
  t.same([...ids].sort(), [...wanted].sort(), 'every matching job exactly once');
  t.ok(got.flat().every((j) => j.kind === 'export' && j.status === 'succeeded'));
  const times = got.flat().map((j) => Date.parse(j.created_at));
  t.same(
    times,
    [...times].sort((a, b) => b - a),
    'newest first',
  );

  // Rows created within one millisecond (a tight loop or a batch does this) must page the same.
  await deps.db.raw(
    `UPDATE jobs SET created_at = '2026-01-01T00:00:00.123Z'::timestamptz + (? || ' microseconds')::interval * ord
    FROM unnest(?::text[]) WITH ORDINALITY AS u(jid, ord) WHERE jobs.id = u.jid`,
    [100, wanted],
  );
  const same = (await pages('kind=export&status=succeeded')).flat().map((j) => j.id);
  t.same([...same].sort(), [...wanted].sort(), 'same-millisecond rows: none lost, none repeated');

  t.equal((await api('/v1/jobs?kind=import', other.key)).body.data.length, 1);
  t.equal((await api('/v1/jobs?status=queued', other.key)).body.data.length, 1);
  t.equal((await api(`/v1/jobs/${wanted[0]}`)).status, 404, "another tenant's job is not found");
});

t.test('list: a cursor this API did not issue is 400 invalid_cursor', async (t) => {
  for (const cursor of ['nope', Buffer.from('{"id":"x"}').toString('base64url'), Buffer.from('{"created_at":"soon","id":"x"}').toString('base64url')]) {
    const res = await api(`/v1/jobs?cursor=${cursor}`);
    t.equal(res.status, 400, cursor);
    t.equal(res.body.error.code, 'invalid_cursor');
  }
  t.equal((await api('/v1/jobs?status=bogus')).status, 400);
});

t.test('create with a dedupe key joins the live job, and starts a new one once it finished', async (t) => {
  const jobs = deps.repos.jobs;
  const first = await jobs.create(tenantId, 'export', { n: 1 }, 'export-all');
  t.equal(first.joined, false);
  const again = await jobs.create(tenantId, 'export', { n: 2 }, 'export-all');
  t.equal(again.joined, true);
  t.equal(again.job.id, first.job.id);
  const racing = await Promise.all(Array.from({ length: 5 }, () => jobs.create(tenantId, 'export', {}, 'export-all')));
  t.ok(
    racing.every((r) => r.joined && r.job.id === first.job.id),
    'concurrent creates all join',
  );

  await deps.queues.enqueue(work, { mode: 'ok', tag: 'd1' }, { jobRowId: first.job.id });
  await untilStatus(first.job.id, 'succeeded');
  const next = await jobs.create(tenantId, 'export', {}, 'export-all');
  t.equal(next.joined, false);
  t.not(next.job.id, first.job.id);
  t.equal((await jobs.create(tenantId, 'export', {}, 'other-key')).joined, false, 'another key is another job');
  t.equal((await cancel(next.job.id)).body.status, 'canceled');
  t.equal((await jobs.create(tenantId, 'export', {}, 'export-all')).joined, false, 'a canceled job is not joined either');
});
