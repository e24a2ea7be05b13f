import t from 'tap';
import { setup } from '../helpers/harness.js';
import { spawnWorker } from '../helpers/processes.js';
import { indexReport, complete } from '../helpers/indexed.js';
import { waitFor } from '../helpers/wait.js';

// A worker stopped gracefully (SIGTERM: a deploy, a scale-down) while its stages run: it finishes
// what it holds, takes nothing new and exits 0; the rest is run by another worker; nothing is lost
// or applied twice, and a job's row ends succeeded. Bound: all done within 60 s of the signal.
const BOUND_MS = 60_000;

const h = await setup();
t.teardown(() => h.close());

t.test('SIGTERM mid-stage: held work finishes, the rest runs elsewhere, nothing lost or doubled', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  // Each stage held 3 s (within the 10 s shutdown deadline), one catalog slot.
  const leaving = spawnWorker(t, h.config, { FAULT_STAGE_DELAY_MS: '3000', WORKER_CONCURRENCY: 'catalog=1' });
  const catalog = h.api.deps.queues.get('catalog');
  await waitFor(
    async () => (await catalog.getWorkersCount()) >= 1,
    60_000,
    () => `the worker (${leaving.log()})`,
  );
  for (let b = 0; b < 3; b++) {
    const upsert = Array.from({ length: 50 }, (_, i) => ({ id: `s${b}-${i}`, name: { en: `Graceful kettle ${b} ${i}` }, price: 2, currency: 'USD' }));
    t.equal((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert } })).status, 200);
  }
  const reindex = await h.api.call('POST', '/v1/reindex', { key, body: { mode: 'full' } });
  t.equal(reindex.status, 202);
  await waitFor(async () => (await catalog.getActiveCount()) === 1, 20_000, 'a stage running');

  await leaving.kill('SIGTERM');
  t.equal(leaving.child.exitCode, 0, `a graceful stop exits 0 (${leaving.child.exitCode} ${leaving.child.signalCode} ${leaving.log().slice(-1000)})`);
  const stopped = Date.now();

  const staying = spawnWorker(t, h.config);
  const report = await waitFor(
    async () => {
      const r = await indexReport(h.api.deps.db, tenantId);
      return complete(r) ? r : null;
    },
    BOUND_MS,
    () => `every product indexed (${staying.log().slice(-1500)})`,
    250,
  );
  t.same(report.duplicated, [], 'each indexed exactly once');
  t.equal(await h.api.deps.repos.products.count(tenantId), 150);
  const job = await waitFor(
    async () => {
      const j = (await h.api.call('GET', `/v1/jobs/${reindex.body.job.id}`, { key })).body;
      return ['succeeded', 'failed', 'canceled'].includes(j.status) && j;
    },
    BOUND_MS,
    'the reindex finished',
  );
  t.equal(job.status, 'succeeded', `the reindex row ends succeeded (${job.error ?? ''})`);
  t.equal(await catalog.getFailedCount(), 0, 'no stage failed');
  t.comment(`all done ${Date.now() - stopped} ms after the stop`);
});
