import t from 'tap';
import { setup } from '../helpers/harness.js';
import { startPrivateRedis } from '../helpers/redis-server.js';
import { spawnWorker } from '../helpers/processes.js';
import { indexReport, complete } from '../helpers/indexed.js';
import { waitFor } from '../helpers/wait.js';

// Redis restarted mid-sync without persistence (SHUTDOWN NOSAVE): every queued index job, the
// maintenance schedules and the fairness counters are gone. Nothing acknowledged may be lost, and
// neither the API nor the worker is restarted. Bound: every product indexed within 60 s of Redis
// coming back (the sweep runs every 10 s here; a real deployment's bound is SWEEP_EVERY_MS + 60 s).
const RECOVERY_BOUND_MS = 60_000;

const redis = await startPrivateRedis();
const h = await setup({ REDIS_URL: redis.url, SWEEP_EVERY_MS: '10000' });
// The harness clears its Redis prefix on close, so Redis must be up then; it stops last.
t.teardown(async () => {
  if (!redis.running()) await redis.start();
  await h.close();
  await redis.close();
});

const products = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `r${from + i}`, name: { en: `Restart kettle ${from + i}` }, price: 12, currency: 'USD' }));

t.test('a Redis restart mid-sync loses no acknowledged product', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  // One slow catalog slot, so a backlog is waiting in Redis when it goes.
  const worker = spawnWorker(t, h.config, { WORKER_CONCURRENCY: 'catalog=1', FAULT_STAGE_DELAY_MS: '400', SWEEP_EVERY_MS: '10000' });
  const maintenance = h.api.deps.queues.get('maintenance');
  await waitFor(
    async () => (await maintenance.getJobSchedulers()).length >= 2,
    60_000,
    () => `the worker's schedules (${worker.log()})`,
  );

  let acknowledged = 0;
  for (let b = 0; b < 8; b++) {
    const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products(b * 250, 250) } });
    t.equal(res.status, 200, `batch ${b} acknowledged`);
    acknowledged += res.body.upserted;
  }
  const catalog = h.api.deps.queues.get('catalog');
  // Mid-sync: some batches indexed, more still queued.
  await waitFor(async () => (await h.api.deps.repos.products.countUnindexed(tenantId)) < acknowledged, 30_000, 'the first batch indexed');
  const queued = await catalog.getJobCounts('waiting', 'prioritized', 'active');
  t.ok(queued.prioritized + queued.waiting + queued.active > 1, 'a backlog is queued when Redis goes');

  await redis.restart();
  const back = Date.now();
  t.same(
    await catalog.getJobCounts('waiting', 'prioritized', 'active', 'delayed'),
    { waiting: 0, prioritized: 0, active: 0, delayed: 0 },
    'Redis came back empty',
  );
  // Work acknowledged after the restart goes through the fresh queue beside the lost work.
  for (let b = 8; b < 10; b++) {
    const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products(b * 250, 250) } });
    t.equal(res.status, 200, `batch ${b} acknowledged after the restart`);
    acknowledged += res.body.upserted;
  }
  t.equal(acknowledged, 2500);

  const report = await waitFor(
    async () => {
      const r = await indexReport(h.api.deps.db, tenantId);
      return complete(r) ? r : null;
    },
    RECOVERY_BOUND_MS,
    'every product indexed',
    250,
  ).catch(async (err) => {
    const r = await indexReport(h.api.deps.db, tenantId);
    t.fail(`not recovered within ${RECOVERY_BOUND_MS} ms: ${r.missing.length} missing, ${r.unindexed} unindexed (${worker.log().slice(-2000)})`);
    throw err;
  });
  t.comment(`recovered ${Date.now() - back} ms after Redis came back; products lost: ${report.missing.length}`);
  t.equal(report.missing.length, 0, 'no acknowledged product lost');
  t.same(report.duplicated, [], 'each product indexed exactly once');
  t.equal(await h.api.deps.repos.products.count(tenantId), 2500);
  t.ok(await waitFor(async () => (await maintenance.getJobSchedulers()).length >= 2, 30_000, 'schedules back'), 'the maintenance schedules are back in Redis');
  t.equal(worker.child.exitCode, null, 'the worker was never restarted');
});
