import t, { type Test } from 'tap';
import { setup } from '../helpers/harness.js';
import { spawnWorker } from '../helpers/processes.js';
import { waitFor } from '../helpers/wait.js';
import { holdWrites } from '../helpers/pg-fault.js';

// The settling of a canceled full-sync cleanup (seen set deleted, checkpoint cleared) that no
// worker finishes: the worker process doing it is killed (SIGKILL) while a Postgres advisory lock
// the test holds stops its seen-set deletion, or the canceled job's queued work is lost with
// Redis. Another worker process (resume-syncs every 10 s here) must finish it: nothing more
// deleted, the seen set gone, the checkpoint cleared, the sync_id free after its hold.
const h = await setup({ SWEEP_EVERY_MS: '10000' });
t.teardown(() => h.close());
const { db } = h.api.deps;
const FILLERS = 10_000;
const product = (id: string) => ({ id, name: { en: `Product ${id}` }, price: 10, currency: 'USD' });
const count = async (table: string, where: Record<string, string>) => Number((await db(table).where(where).count({ n: '*' }))[0].n);

/** A store over SYNC_INLINE_PRODUCTS whose full sync sent only `a` and completed: its cleanup's job is queued, no worker runs. */
async function completedSync(t: Test, name: string) {
  const { id, key } = await h.tenant(name);
  const send = (body: Record<string, unknown>) => h.api.call('POST', '/v1/products/batch', { key, body });
  t.equal((await send({ upsert: [product('a'), product('b')] })).status, 200);
  await db.raw(
    `INSERT INTO products (tenant_id, id, data, content_hash, updated_at)
     SELECT p.tenant_id, 'f' || lpad(g::text, 5, '0'), jsonb_set(p.data, '{id}', to_jsonb('f' || lpad(g::text, 5, '0'))), p.content_hash, now() - interval '1 hour'
       FROM products p, generate_series(0, ? - 1) g WHERE p.tenant_id = ? AND p.id = 'a'`,
    [FILLERS, id],
  );
  t.equal((await send({ replace_all: true, sync_id: 'big-1', upsert: [product('a')] })).status, 200);
  const done = await send({ replace_all: true, sync_id: 'big-1', sync_complete: true, upsert: [product('b')] });
  const jobId = done.body.sync_job.id as string;
  t.match((await h.api.call('POST', `/v1/jobs/${jobId}/cancel`, { key })).body, { status: 'canceled' }, 'canceled while queued');
  const job = () => h.api.call('GET', `/v1/jobs/${jobId}`, { key }).then((r) => r.body);
  const backdate = (minutes: number) =>
    db('product_syncs')
      .where({ tenant_id: id, sync_id: 'big-1' })
      .update({ completed_at: db.raw(`completed_at - make_interval(mins => ?)`, [minutes]) });
  return { id, send, jobId, job, backdate };
}

async function assertSettled(t: Test, s: Awaited<ReturnType<typeof completedSync>>, log: () => string) {
  const job = await waitFor(
    async () => ((j) => (j.result ? j : null))(await s.job()),
    90_000,
    () => `the canceled job settled (${log().slice(-1000)})`,
  );
  t.match(job, { id: s.jobId, status: 'canceled', result: { deleted: 0 } }, 'canceled, nothing deleted');
  t.equal(await count('products', { tenant_id: s.id }), FILLERS + 2, 'every product kept');
  t.equal(await count('product_sync_items', { tenant_id: s.id }), 0, 'the seen set is gone');
  t.match(
    await db('product_syncs').where({ tenant_id: s.id, sync_id: 'big-1' }).first(),
    { cleanup_after: null, cleanup_removing: null },
    'checkpoint cleared',
  );
  await s.backdate(16);
  t.equal((await s.send({ replace_all: true, sync_id: 'big-1', upsert: [product('a')] })).status, 200, 'after the hold the sync_id starts a new sync');
}

t.test('a worker killed while settling a canceled cleanup: another worker finishes it', async (t) => {
  const s = await completedSync(t, 'Store K');
  // Deleting the seen set waits for the test's lock: the worker is killed there.
  const hold = await holdWrites(db, { name: 'hold_settle_seen', table: 'product_sync_items', on: 'DELETE' });
  t.teardown(() => hold.remove());

  const first = spawnWorker(t, h.config, { SWEEP_EVERY_MS: '600000' });
  await waitFor(
    async () => (await db.raw(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows.length,
    60_000,
    () => `the settling waiting (${first.log().slice(-1000)})`,
  );
  await first.kill('SIGKILL');
  await hold.release();
  await hold.remove();
  t.ok((await count('product_sync_items', { tenant_id: s.id })) > 0, 'the settling was cut off: the seen set is there');
  t.match(await s.job(), { status: 'canceled', result: null });

  await s.backdate(2);
  const second = spawnWorker(t, h.config, { SWEEP_EVERY_MS: '10000' });
  await assertSettled(t, s, second.log);
  await second.kill('SIGTERM');
});

t.test('a canceled cleanup whose queued job was lost is settled by resume-syncs', async (t) => {
  const s = await completedSync(t, 'Store L');
  await (await h.api.deps.queues.get('catalog').getJob(`finish-sync-${s.jobId}`))?.remove();
  await s.backdate(2);
  const worker = spawnWorker(t, h.config, { SWEEP_EVERY_MS: '10000' });
  await assertSettled(t, s, worker.log);
});
