import t from 'tap';
import type { Job } from 'bullmq';
import { setup } from '../helpers/harness.js';
import { FILLERS, SENT_FILLERS, fid, fill, product } from './big-store.js';
import { finishSync } from '../../pipelines/catalog/finish-sync.stage.js';
import { runStage } from '../../workers/run-stage.js';
import { resumeSyncCleanups } from '../../shared/catalog/sync-resume.js';
import { registry } from '../../shared/platform/metrics.js';
import type { Stage, StageJobData } from '../../shared/platform/queue/define-stage.js';

// A large store's full-sync cleanup (finish-sync) that fails every time (a trigger refuses the
// deletes of half the fillers: a permanent error). resume-syncs' step is driven directly with a
// given `now`: it restarts the cleanup after each failure with a growing wait (none, then 5 min
// doubling up to 6 h), ten times, then gives up once (the job row stays failed and says so) and
// leaves it alone. A later cleanup that runs to its end clears the count. Real Postgres and
// BullMQ queues; each queued finish-sync job is run through the worker's runStage as its final attempt.
const h = await setup();
t.teardown(() => h.close());
const { db, repos, queues } = h.api.deps;
const MIN = 60_000;
await db.raw(`CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'delete refused by the test'; END $$`);
const givenUpTotal = async () => (await registry.getSingleMetric('pss_sync_cleanups_given_up_total')?.get())?.values[0]?.value ?? 0;

t.test('a cleanup that always fails is restarted with growing waits, given up after 10 restarts, and a later success clears the count', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const send = (body: Record<string, unknown>) => h.api.call('POST', '/v1/products/batch', { key, body });
  t.equal((await send({ upsert: [product('a'), product('b'), product('c')] })).status, 200);
  await fill(db, tenantId);
  t.equal(
    (await send({ replace_all: true, sync_id: 'bad-1', upsert: [product('a'), ...Array.from({ length: SENT_FILLERS }, (_, i) => product(fid(i)))] })).status,
    200,
  );
  await db.raw(`CREATE TRIGGER refuse_delete BEFORE DELETE ON products FOR EACH ROW WHEN (OLD.id >= 'f05000') EXECUTE FUNCTION refuse_delete()`);
  const done = await send({ replace_all: true, sync_id: 'bad-1', sync_complete: true, upsert: [product('c')] });
  t.equal(done.status, 200);
  const rowId = done.body.sync_job.id as string;

  const sync = () => db('product_syncs').where({ tenant_id: tenantId, sync_id: 'bad-1' }).first('cleanup_restarts', 'cleanup_given_up_at', 'cleanup_after');
  const sweep = (at: number) => resumeSyncCleanups(h.api.deps, 0, undefined, new Date(at));
  /** Runs the queued finish-sync job of `jobRowId` as its last attempt, then takes it off the queue as a spent job. */
  async function runQueued(jobRowId: string) {
    const job = await queues.get('catalog').getJob(`finish-sync-${jobRowId}`);
    if (!job) throw new Error(`no queued finish-sync job for ${jobRowId}`);
    const last = { id: job.id, data: job.data, opts: { attempts: 1 }, attemptsMade: 0, updateProgress: async () => undefined };
    const out = await runStage(finishSync as Stage<unknown>, last as unknown as Job<StageJobData>, h.api.deps).catch((err: Error) => err);
    await job.remove();
    return out;
  }

  t.match(await runQueued(rowId), { message: /delete refused by the test/ }, 'the first run fails');
  // Waits before each restart, after the failure before it: none, then 5 min doubling, capped at 6 h.
  const waits = [0, 5, 10, 20, 40, 80, 160, 320, 360, 360].map((m) => m * MIN);
  for (const [i, wait] of waits.entries()) {
    const failedAt = (await repos.jobs.get(rowId))!.finished_at!.getTime();
    if (wait > 0) {
      t.match(await sweep(failedAt + wait - MIN), { resumed: 0, waiting: 1, givenUp: [] }, `restart ${i + 1} not a minute before its wait`);
      t.match(await repos.jobs.get(rowId), { status: 'failed' });
    }
    t.match(await sweep(failedAt + wait), { resumed: 1, waiting: 0, givenUp: [] }, `restart ${i + 1} once ${wait / MIN} min have passed`);
    t.match(await repos.jobs.get(rowId), { status: 'queued', error: null }, 'the same row reopened');
    t.equal((await sync()).cleanup_restarts, i + 1, 'counted on the sync row');
    t.match(await runQueued(rowId), { message: /delete refused by the test/ }, 'and it fails again');
  }

  const before = await givenUpTotal();
  const failedAt = (await repos.jobs.get(rowId))!.finished_at!.getTime();
  const out = await sweep(failedAt + 7 * 60 * MIN);
  t.match(out, { resumed: 0, waiting: 0, givenUp: [{ tenantId, syncId: 'bad-1', jobRowId: rowId, restarts: 10 }] }, 'given up after 10 restarts');
  const failed = await repos.jobs.get(rowId);
  t.match(failed, { status: 'failed', error: /given up after 10 restarts.*delete refused by the test/ }, 'the row says so, with the last error');
  t.ok((await sync()).cleanup_given_up_at, 'the sync is marked given up');
  t.equal(await givenUpTotal(), before + 1, 'pss_sync_cleanups_given_up_total counts it');
  t.notOk(await queues.get('catalog').getJob(`finish-sync-${rowId}`), 'nothing queued');

  t.match(await sweep(failedAt + 30 * 24 * 60 * MIN), { resumed: 0, started: 0, waiting: 0, givenUp: [] }, 'a month later: left alone');
  t.same(await repos.jobs.get(rowId), failed, 'the row unchanged');
  t.equal(await givenUpTotal(), before + 1, 'counted once');

  // The database takes the deletes again; the merchant sends the completing batch again: a new job, which ends the cleanup.
  await db.raw('DROP TRIGGER refuse_delete ON products');
  const again = await send({ replace_all: true, sync_id: 'bad-1', sync_complete: true, upsert: [product('c')] });
  t.equal(again.status, 200);
  const newRowId = again.body.sync_job.id as string;
  t.not(newRowId, rowId, 'a new job row');
  t.match(await runQueued(newRowId), { deleted: FILLERS - SENT_FILLERS + 1 }, 'the cleanup runs to its end');
  t.match(await repos.jobs.get(newRowId), { status: 'succeeded' });
  t.same(await sync(), { cleanup_restarts: 0, cleanup_given_up_at: null, cleanup_after: null }, 'its end clears the count');
});

t.test('a cleanup that succeeds on a restart clears its count', async (t) => {
  const { id: tenantId, key } = await h.tenant('Store N');
  const send = (body: Record<string, unknown>) => h.api.call('POST', '/v1/products/batch', { key, body });
  t.equal((await send({ upsert: [product('a'), product('b'), product('c')] })).status, 200);
  await fill(db, tenantId);
  t.equal((await send({ replace_all: true, sync_id: 'n-1', upsert: [product('a')] })).status, 200);
  await db.raw(`CREATE TRIGGER refuse_delete_n BEFORE DELETE ON products FOR EACH ROW WHEN (OLD.id >= 'f05000') EXECUTE FUNCTION refuse_delete()`);
  const done = await send({ replace_all: true, sync_id: 'n-1', sync_complete: true, upsert: [product('c')] });
  const rowId = done.body.sync_job.id as string;
  const restarts = async () => (await db('product_syncs').where({ tenant_id: tenantId, sync_id: 'n-1' }).first('cleanup_restarts')).cleanup_restarts;
  const run = async () => {
    const job = (await queues.get('catalog').getJob(`finish-sync-${rowId}`))!;
    const last = { id: job.id, data: job.data, opts: { attempts: 1 }, attemptsMade: 0, updateProgress: async () => undefined };
    const out = await runStage(finishSync as Stage<unknown>, last as unknown as Job<StageJobData>, h.api.deps).catch((err: Error) => err);
    await job.remove();
    return out;
  };
  t.match(await run(), { message: /delete refused/ });
  const failedAt = () => repos.jobs.get(rowId).then((r) => r!.finished_at!.getTime());
  t.match(await resumeSyncCleanups(h.api.deps, 0, undefined, new Date(await failedAt())), { resumed: 1 });
  t.match(await run(), { message: /delete refused/ });
  t.match(await resumeSyncCleanups(h.api.deps, 0, undefined, new Date((await failedAt()) + 5 * MIN)), { resumed: 1 });
  t.equal(await restarts(), 2);
  await db.raw('DROP TRIGGER refuse_delete_n ON products');
  t.match(await run(), { deleted: FILLERS + 1 }, 'the second restart runs to its end');
  t.equal(await restarts(), 0, 'the count is cleared');
});
