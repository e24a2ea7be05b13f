import t from 'tap';
import { setup } from '../helpers/harness.js';
import { spawnWorker } from '../helpers/processes.js';
import { indexReport, complete } from '../helpers/indexed.js';
import { waitFor } from '../helpers/wait.js';

// A worker process killed (SIGKILL) in the middle of its stages, with the default lock settings:
// another worker process re-runs them once BullMQ finds them stalled. Bound: every product indexed
// exactly once within 30 s of the kill (stalled detection takes at most WORKER_LOCK_MS + the
// stalled-check interval, 10 + 5 s by default, then the stage re-runs).
const RECOVERY_BOUND_MS = 30_000;

const h = await setup();
t.teardown(() => h.close());

t.test('a worker killed mid-stage loses nothing and indexes nothing twice', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  // The victim holds each stage for 5 s, so it is surely mid-stage when it dies.
  const victim = spawnWorker(t, h.config, { FAULT_STAGE_DELAY_MS: '5000', WORKER_CONCURRENCY: 'catalog=2' });
  const catalog = h.api.deps.queues.get('catalog');
  await waitFor(
    async () => (await catalog.getWorkersCount()) >= 1,
    60_000,
    () => `the victim worker (${victim.log()})`,
  );
  for (let b = 0; b < 6; b++) {
    const upsert = Array.from({ length: 200 }, (_, i) => ({ id: `w${b}-${i}`, name: { en: `Stalled lantern ${b} ${i}` }, price: 3, currency: 'USD' }));
    const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert } });
    t.equal(res.status, 200, `batch ${b} acknowledged`);
  }
  await waitFor(async () => (await catalog.getActiveCount()) === 2, 20_000, 'the victim holding two jobs');

  const survivor = spawnWorker(t, h.config);
  await waitFor(
    async () => (await catalog.getWorkersCount()) >= 2,
    60_000,
    () => `the survivor worker (${survivor.log()})`,
  );
  const held = await catalog.getActiveCount();
  t.ok(held >= 1, 'the victim is mid-stage');
  await victim.kill('SIGKILL');
  const killedAt = Date.now();
  t.equal((await indexReport(h.api.deps.db, tenantId)).missing.length > 0, true, 'some products not yet indexed when it died');

  const report = await waitFor(
    async () => {
      const r = await indexReport(h.api.deps.db, tenantId);
      return complete(r) ? r : null;
    },
    RECOVERY_BOUND_MS,
    'every product indexed',
    250,
  ).catch(async (err) => {
    t.fail(
      `not recovered within ${RECOVERY_BOUND_MS} ms: ${JSON.stringify(await indexReport(h.api.deps.db, tenantId)).slice(0, 300)} ${survivor.log().slice(-1500)}`,
    );
    throw err;
  });
  t.comment(`recovered ${Date.now() - killedAt} ms after the kill (${held} jobs held by the dead worker); products lost: ${report.missing.length}`);
  t.equal(await h.api.deps.repos.products.count(tenantId), 1200);
  t.same(report.duplicated, [], 'each indexed exactly once');
  const failed = await catalog.getFailedCount();
  t.equal(failed, 0, 'no index job failed for stalling');
});
