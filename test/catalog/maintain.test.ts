import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { statsSettled, vacuumHorizonPast } from '../helpers/pg-stats.js';
import { vacuumDead } from '../../shared/maintenance/analyze.js';
import { maintainTables } from '../../pipelines/maintenance/maintain-tables.stage.js';
import { sweepAlternatives } from '../../pipelines/maintenance/sweep-alternatives.stage.js';
import { ensureSchedules } from '../../shared/platform/queue/schedule.js';
import { schedules as catalogSchedules, RESUME_SYNCS_SCHEDULER_ID, SWEEP_SCHEDULER_ID } from '../../pipelines/catalog/index.js';
import {
  schedules as maintenanceSchedules,
  MAINTAIN_SCHEDULER_ID,
  PURGE_SCHEDULER_ID,
  SWEEP_ALTERNATIVES_SCHEDULER_ID,
  SWEEP_BUILDS_SCHEDULER_ID,
} from '../../pipelines/maintenance/index.js';
import { schedules as jobsSchedules, RECONCILE_SCHEDULER_ID } from '../../pipelines/jobs/index.js';

// Dead rows where the server's autovacuum is off (as on this machine): the service vacuums its own tables.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { db } = h.api.deps;
const dead = async (table: string) => Number((await db.raw('SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = ?', [table])).rows[0]?.n_dead_tup ?? 0);
const products = (price: number) => Array.from({ length: 300 }, (_, i) => ({ id: `v${i}`, name: { en: `Vacuumed lamp ${i}` }, price, currency: 'USD' }));

/** A tenant whose 300 products were all re-sent changed once: a dead row per product in the catalog tables. */
async function churned() {
  const tenant = await h.tenant();
  await loadProducts(h, tenant.key, tenant.id, products(10));
  await loadProducts(h, tenant.key, tenant.id, products(12));
  // Connections report their counters to the statistics system within a second or so.
  await waitFor(async () => (await dead('products')) >= 300 && (await dead('search_docs')) >= 300, 20_000, 'dead rows counted');
  // ... and the pipeline's later writes of the same rows (with their counters) may come after the first 300, and a
  // transaction still open elsewhere keeps a vacuum from removing what it may see: the counts settle (unchanged for 2 s,
  // no other connection in a transaction) before a vacuum.
  await statsSettled(db, ['products', 'search_docs', 'product_index_state']);
  // ... and no session anywhere (another test file's transaction included) can still see the old versions.
  await vacuumHorizonPast(db);
  return tenant;
}

t.test('tables past the dead-row threshold are vacuumed; the catalog still answers with the new versions', async (t) => {
  const tenant = await churned();
  const vacuumed = await vacuumDead(db);
  for (const table of ['products', 'product_index_state', 'search_docs']) t.ok(vacuumed.includes(table), `${table} vacuumed`);
  t.equal(await dead('products'), 0);
  t.equal(await dead('search_docs'), 0);
  // (Index-state marks a worker connection has not reported yet may still arrive: not asserted here.)
  const again = await vacuumDead(db);
  t.notOk(again.includes('products') || again.includes('search_docs'), 'nothing left past the threshold');
  const found = await h.api.deps.engine.search({ tenantId: tenant.id, tokens: ['vacuumed'], offset: 0, limit: 100 });
  t.equal(found.total, 300);
  t.ok(
    found.hits.every((hit) => hit.card.price === '12'),
    'every hit shows the re-sent price',
  );
});

t.test('the maintain-tables stage vacuums on a worker; the maintenance schedule runs it', async (t) => {
  await churned();
  const jobId = await h.api.deps.queues.enqueue(maintainTables, { force: true, run: 'forced' });
  const result = await waitFor(
    async () => {
      const job = await h.api.deps.queues.get('maintenance').getJob(jobId);
      return job?.finishedOn ? job.returnvalue : null;
    },
    20_000,
    'maintain-tables finished',
  );
  t.ok(result.vacuumed.includes('search_docs'), 'search_docs vacuumed');
  t.equal(await dead('search_docs'), 0);

  await ensureSchedules(h.api.deps.queues, [...catalogSchedules(h.config), ...maintenanceSchedules(h.config), ...jobsSchedules(h.config)]);
  const schedulers = await h.api.deps.queues.get('maintenance').getJobSchedulers();
  t.same(
    schedulers.map((s) => s.key).sort(),
    [
      MAINTAIN_SCHEDULER_ID,
      PURGE_SCHEDULER_ID,
      RECONCILE_SCHEDULER_ID,
      RESUME_SYNCS_SCHEDULER_ID,
      SWEEP_ALTERNATIVES_SCHEDULER_ID,
      SWEEP_BUILDS_SCHEDULER_ID,
      SWEEP_SCHEDULER_ID,
    ].sort(),
  );
  t.ok(
    schedulers.every(
      (s) => Number(s.every) === ([PURGE_SCHEDULER_ID, SWEEP_ALTERNATIVES_SCHEDULER_ID].includes(s.key) ? h.config.retention.everyMs : h.config.sweepEveryMs),
    ),
    'every SWEEP_EVERY_MS (purge-expired and sweep-alternatives: PURGE_EVERY_MS)',
  );
  for (const s of schedulers) await h.api.deps.queues.get('maintenance').removeJobScheduler(s.key);
});

t.test('sweep-alternatives does nothing on the Postgres engine (it keeps no synonym sets)', async (t) => {
  const jobId = await h.api.deps.queues.enqueue(sweepAlternatives, { run: 'postgres' });
  const result = await waitFor(
    async () => {
      const job = await h.api.deps.queues.get('maintenance').getJob(jobId);
      return job?.finishedOn ? (job.returnvalue ?? { failed: job.failedReason }) : null;
    },
    20_000,
    'sweep-alternatives finished',
  );
  t.same(result, { deleted: 0, kept: 0, skipped: true });
});
