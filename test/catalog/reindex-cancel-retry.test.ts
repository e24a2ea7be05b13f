import t, { type Test } from 'tap';
import pg from 'pg';
import { setupWithWorkers, eventually } from '../helpers/workers.js';

/**
 * A reindex whose build attempt fails without cleaning up after itself (its write and then its
 * drop of the half-built generation killed by pg_terminate_backend, as a failover would) and is
 * canceled: before its retry runs, or while the failing attempt is still in flight. Either way the
 * job ends canceled with no generation left building, the serving one untouched and every product found.
 */

const { h, workers } = await setupWithWorkers();
const deps = h.api.deps;
const reindexWorker = workers.workers.workers.find((w) => w.name === 'reindex')!;

/** Connections of our own: one holds locks, one watches and kills the worker's statements, as an operator or a failover would. */
const connect = async () => {
  const client = new pg.Client({ connectionString: h.config.databaseUrl });
  await client.connect();
  t.teardown(() => client.end());
  return client;
};
const admin = await connect();
const watcher = await connect();
const adminPid: number = (await admin.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;

/** The pid of a backend (not ours) waiting on a lock while running a statement that contains `text`. */
const blocked = (text: string) =>
  eventually(async () => {
    const { rows } = await watcher.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), $2)
          AND wait_event_type = 'Lock' AND position($1 in query) > 0`,
      [text, adminPid],
    );
    return rows[0]?.pid as number | undefined;
  }, 30_000);
const kill = (pid: number) => watcher.query('SELECT pg_terminate_backend($1)', [pid]);

async function store(prefix: string) {
  const { id: tenantId, key } = await h.tenant();
  const products = Array.from({ length: 20 }, (_, i) => ({ id: `${prefix}${i}`, name: { en: `Retry lamp ${i}` }, price: 10 + i, currency: 'USD' }));
  t.equal((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products } })).status, 200);
  await eventually(async () => (await deps.engine.search({ tenantId, tokens: ['lamp'], offset: 0, limit: 1 })).total === 20, 15_000);
  const before = await deps.db('search_generations').where({ tenant_id: tenantId }).first();
  return { tenantId, key, before };
}

/**
 * Starts a reindex and leaves its first attempt stuck dropping the generation it began: its write
 * was killed, and the drop waits on the lock held here. Returns the job, the generation and the drop's pid.
 */
async function failingBuild(tenantId: string, key: string) {
  await admin.query('BEGIN');
  await admin.query('LOCK TABLE search_docs IN SHARE MODE');
  const res = await h.api.call('POST', '/v1/reindex', { key, body: { mode: 'full' } });
  t.equal(res.status, 202, 'reindex accepted');
  const jobId: string = res.body.job.id;
  const write = await blocked('AS v(product_id text, name_norm text');
  const { building: generation } = await deps.db('search_generations').where({ tenant_id: tenantId }).first();
  t.ok(generation, 'the build began a generation');
  await admin.query('SELECT 1 FROM search_generations WHERE tenant_id = $1 FOR UPDATE', [tenantId]);
  await kill(write);
  const drop = await blocked('search_generations');
  return { jobId, generation: generation as number, drop };
}

async function checkCanceled(t: Test, s: Awaited<ReturnType<typeof store>>, jobId: string, generation: number) {
  const done = await eventually(async () => {
    const row = (await h.api.call('GET', `/v1/jobs/${jobId}`, { key: s.key })).body;
    return ['queued', 'running'].includes(row.status) ? null : row;
  }, 30_000);
  t.equal(done.status, 'canceled', 'the job says canceled');
  // The hook that undoes the build runs right after the row is written canceled.
  const after = await eventually(async () => {
    const row = await deps.db('search_generations').where({ tenant_id: s.tenantId }).first();
    return row.building === null ? row : null;
  }, 5_000).catch(() => deps.db('search_generations').where({ tenant_id: s.tenantId }).first());
  t.same([after.active, after.building], [s.before.active, null], 'the serving generation stays; none is left building');
  const [{ n }] = await deps.db('search_docs').where({ tenant_id: s.tenantId, generation }).count({ n: '*' });
  t.equal(Number(n), 0, 'the canceled generation has no documents');
  t.equal((await deps.engine.search({ tenantId: s.tenantId, tokens: ['lamp'], offset: 0, limit: 1 })).total, 20, 'searches still find every product');
  t.equal(await deps.repos.products.count(s.tenantId), 20, 'no product lost');
}

t.test('canceled between a failed build attempt and its retry: the retry stops and the half-built generation goes', async (t) => {
  const s = await store('r');
  const { jobId, generation, drop } = await failingBuild(s.tenantId, s.key);
  // The retry waits until the cancel is in: the worker takes no new job meanwhile.
  await reindexWorker.pause(true);
  await kill(drop);
  await admin.query('ROLLBACK');
  const job = await deps.queues.get('reindex').getJob(`reindex-${jobId}`);
  await eventually(async () => ['delayed', 'waiting', 'wait'].includes(await job!.getState()), 15_000);
  t.equal((await deps.repos.jobs.get(jobId))!.status, 'running', 'the first attempt failed; the job waits for its retry');
  const cancel = await h.api.call('POST', `/v1/jobs/${jobId}/cancel`, { key: s.key });
  t.equal(cancel.status, 200);
  reindexWorker.resume();
  await checkCanceled(t, s, jobId, generation);
});

t.test('canceled while a failing build attempt is still dropping its generation: the job stops there and the generation goes', async (t) => {
  const s = await store('s');
  const { jobId, generation, drop } = await failingBuild(s.tenantId, s.key);
  t.equal((await h.api.call('POST', `/v1/jobs/${jobId}/cancel`, { key: s.key })).status, 200);
  // The worker notices the cancel within its poll (1 s) while the attempt still waits.
  await new Promise((r) => setTimeout(r, 2_500));
  await kill(drop);
  await admin.query('ROLLBACK');
  await checkCanceled(t, s, jobId, generation);
});
