import t, { type Test } from 'tap';
import { setup } from '../helpers/harness.js';
import { startTestWorkers } from '../helpers/workers.js';
import { searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { holdWrites } from '../helpers/pg-fault.js';

// Canceling a large store's full-sync cleanup (`POST /v1/jobs/{id}/cancel` on its `sync` job): the
// deletions stop where they are, the cleanup ends (seen set gone, checkpoint cleared, the job row
// canceled with what it deleted) and the sync_id is free again after the completed hold. Real API,
// Postgres, Redis and BullMQ workers; the store is made large with SQL (copies of a stored product,
// older than the sync), and a Postgres advisory lock the test holds stops the cleanup on a page, so
// the cancel lands while the job runs without relying on timing.
const h = await setup();
t.teardown(() => h.close());
const { db } = h.api.deps;
// SYNC_INLINE_PRODUCTS (10,000) fillers plus a, b, c, zz: over the bound.
const FILLERS = 10_000;
const SENT_FILLERS = 999;
const product = (id: string, name = `Product ${id}`) => ({ id, name: { en: name }, price: 10, currency: 'USD' });
const fid = (n: number) => `f${String(n).padStart(5, '0')}`;
const count = async (table: string, where: Record<string, string>) => Number((await db(table).where(where).count({ n: '*' }))[0].n);

async function largeStore(t: Test, name: string) {
  const { id, key } = await h.tenant(name);
  const send = (body: Record<string, unknown>) => h.api.call('POST', '/v1/products/batch', { key, body });
  t.equal((await send({ upsert: [product('a'), product('b', 'zebra lamp'), product('c'), product('zz', 'yak lamp')] })).status, 200);
  await db.raw(
    `INSERT INTO products (tenant_id, id, data, content_hash, updated_at)
     SELECT p.tenant_id, 'f' || lpad(g::text, 5, '0'), jsonb_set(p.data, '{id}', to_jsonb('f' || lpad(g::text, 5, '0'))), p.content_hash, now() - interval '1 hour'
       FROM products p, generate_series(0, ? - 1) g WHERE p.tenant_id = ? AND p.id = 'a'`,
    [FILLERS, id],
  );
  const job = (jobId: string) => h.api.call('GET', `/v1/jobs/${jobId}`, { key }).then((r) => r.body);
  return { id, key, send, job, search: searchIds(h, key) };
}

/** The sync's first batch: a and the first SENT_FILLERS fillers (b, c, zz and the other fillers unsent). */
const firstBatch = { replace_all: true, sync_id: 'big-1', upsert: [product('a'), ...Array.from({ length: SENT_FILLERS }, (_, i) => product(fid(i)))] };
const completing = { replace_all: true, sync_id: 'big-1', sync_complete: true, upsert: [product('c')] };

async function cleanupState(tenantId: string) {
  return {
    seen: await count('product_sync_items', { tenant_id: tenantId }),
    sync: await db('product_syncs').where({ tenant_id: tenantId, sync_id: 'big-1' }).first('cleanup_after', 'cleanup_removing'),
  };
}

t.test('a cleanup canceled while it runs stops deleting, ends, and frees the sync_id after the hold', async (t) => {
  const s = await largeStore(t, 'Store R');
  const workers = await startTestWorkers(h.config);
  t.teardown(() => workers.close());
  await waitFor(async () => (await s.search('zebra')).includes('b') && (await s.search('yak')).includes('zz'), 60_000, 'b and zz searchable');
  t.equal((await s.send(firstBatch)).status, 200);

  // Deleting the second half of the fillers waits for the test's lock: the cleanup stops on that page.
  const hold = await holdWrites(db, { name: 'hold_cleanup_page', table: 'products', on: 'DELETE', when: `OLD.id >= 'f05000'` });
  t.teardown(() => hold.remove());

  const done = await s.send(completing);
  t.equal(done.status, 200);
  const jobId = done.body.sync_job.id as string;
  await waitFor(
    async () => (await db.raw(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows.length,
    60_000,
    'the cleanup waiting on its page',
  );
  const asked = await h.api.call('POST', `/v1/jobs/${jobId}/cancel`, { key: s.key });
  t.match(asked, { status: 200, body: { status: 'running' } }, 'a running job stops at its next check');
  await hold.release();

  const job = await waitFor(async () => ((j) => (j.status !== 'running' && j.result ? j : null))(await s.job(jobId)), 60_000, 'the canceled job settled');
  const left = new Set<string>(await db('products').where({ tenant_id: s.id }).pluck('id'));
  t.match(job, { status: 'canceled', result: { deleted: FILLERS + 4 - left.size } }, 'canceled, with every product it deleted');
  t.ok(left.size > SENT_FILLERS + 2 && left.size < FILLERS + 4, 'some unsent products deleted, not all');
  t.notOk(left.has('b') || left.has(fid(SENT_FILLERS)), 'the products deleted before the cancel stay deleted');
  t.ok(left.has('zz') && left.has(fid(FILLERS - 1)) && left.has('a') && left.has('c'), 'the rest are kept');
  t.same(await cleanupState(s.id), { seen: 0, sync: { cleanup_after: null, cleanup_removing: null } }, 'seen set gone, checkpoint cleared');
  t.same(await s.search('yak'), ['zz'], 'a kept product is still searchable');
  await waitFor(async () => !(await s.search('zebra')).includes('b'), 30_000, 'b out of search');

  const again = await s.send(completing);
  t.equal(again.status, 200, 'the completing batch sent again is a plain batch');
  t.notOk(again.body.sync_job, 'and starts no cleanup: the cancel holds');
  t.equal(await count('products', { tenant_id: s.id }), left.size, 'nothing more deleted');
  t.equal((await s.send({ replace_all: true, sync_id: 'big-1', upsert: [product('a')] })).status, 409, 'within the hold the sync_id is taken');

  await db('product_syncs')
    .where({ tenant_id: s.id, sync_id: 'big-1' })
    .update({ completed_at: db.raw(`completed_at - interval '16 minutes'`) });
  t.equal((await s.send({ replace_all: true, sync_id: 'big-1', upsert: [product('a'), product('c')] })).status, 200, 'after the hold: a new sync');
  await hold.remove();
  const next = await s.send({ replace_all: true, sync_id: 'big-1', sync_complete: true, upsert: [product('zz', 'yak lamp')] });
  t.equal(next.status, 200);
  t.same((await db('products').where({ tenant_id: s.id }).pluck('id')).sort(), ['a', 'c', 'zz'], 'the new sync completed');
});

t.test('a cleanup canceled while queued deletes nothing and ends once its job leaves the queue', async (t) => {
  const s = await largeStore(t, 'Store Q');
  t.equal((await s.send(firstBatch)).status, 200);
  const done = await s.send(completing);
  t.match(done.body.sync_job, { kind: 'sync', status: 'queued' });
  const jobId = done.body.sync_job.id as string;
  t.match((await h.api.call('POST', `/v1/jobs/${jobId}/cancel`, { key: s.key })).body, { status: 'canceled' }, 'canceled at once');

  const again = await s.send(completing);
  t.equal(again.status, 200);
  t.notOk(again.body.sync_job, 'the completing batch sent again does not start the canceled cleanup again');

  const workers = await startTestWorkers(h.config);
  t.teardown(() => workers.close());
  const job = await waitFor(async () => ((j) => (j.result ? j : null))(await s.job(jobId)), 60_000, 'the canceled job settled');
  t.match(job, { status: 'canceled', result: { deleted: 0 } });
  t.equal(await count('products', { tenant_id: s.id }), FILLERS + 4, 'every product kept');
  t.same(await cleanupState(s.id), { seen: 0, sync: { cleanup_after: null, cleanup_removing: null } }, 'seen set gone, checkpoint cleared');
  t.same(
    (await h.api.call('GET', '/v1/jobs?kind=sync', { key: s.key })).body.data.map((r: { id: string }) => r.id),
    [jobId],
    'no other sync job',
  );
});
