import t from 'tap';
import { setup } from '../helpers/harness.js';
import { spawnWorker } from '../helpers/processes.js';
import { searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { FILLERS, SENT_FILLERS, fid, fill, product } from '../catalog/big-store.js';

// A large store's full-sync cleanup (finish-sync) that fails for good: every attempt spent while
// the database refused its deletes (a trigger the test installs and drops, standing in for a
// Postgres down for minutes). The worker process's resume-syncs sweep (every 10 s here) must start
// it again once the database takes deletes: the unsent products go, the seen set goes, the sync_id
// is free again, and the job row the merchant holds ends succeeded with every deletion counted.
// The store is made large with SQL (copies of a stored product, older than the sync).
const h = await setup({ SWEEP_EVERY_MS: '10000' });
t.teardown(() => h.close());
const { db } = h.api.deps;
const count = async (table: string, where: Record<string, string>) => Number((await db(table).where(where).count({ n: '*' }))[0].n);
const ended = (j: { status: string }) => ['succeeded', 'failed', 'canceled'].includes(j.status);

t.test('a sync cleanup that failed for good is started again by the sweep and its job row ends succeeded', async (t) => {
  const worker = spawnWorker(t, h.config, { SWEEP_EVERY_MS: '10000' });
  const { id: tenantId, key } = await h.tenant();
  const send = (body: Record<string, unknown>) => h.api.call('POST', '/v1/products/batch', { key, body });
  t.equal((await send({ upsert: [product('a'), product('b', 'zebra lamp'), product('c')] })).status, 200);
  await fill(db, tenantId);
  await waitFor(
    async () => (await searchIds(h, key)('zebra')).includes('b'),
    60_000,
    () => `b searchable (${worker.log().slice(-1000)})`,
  );

  const first = await send({ replace_all: true, sync_id: 'big-1', upsert: [product('a'), ...Array.from({ length: SENT_FILLERS }, (_, i) => product(fid(i)))] });
  t.equal(first.status, 200);
  // The database refuses to delete the second half of the fillers: the walk's first pages go, then every attempt fails on the same page.
  await db.raw(`CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'delete refused by the test'; END $$`);
  await db.raw(`CREATE TRIGGER refuse_delete BEFORE DELETE ON products FOR EACH ROW WHEN (OLD.id >= 'f05000') EXECUTE FUNCTION refuse_delete()`);

  const done = await send({ replace_all: true, sync_id: 'big-1', sync_complete: true, upsert: [product('c')] });
  t.equal(done.status, 200);
  t.match(done.body.sync_job, { kind: 'sync', status: 'queued' });
  const jobId = done.body.sync_job.id as string;
  const job = () => h.api.call('GET', `/v1/jobs/${jobId}`, { key }).then((r) => r.body);
  const failed = await waitFor(
    async () => ((j) => (ended(j) ? j : null))(await job()),
    90_000,
    () => `the job failing (${worker.log().slice(-1000)})`,
  );
  t.match(failed, { status: 'failed', error: /delete refused by the test/ }, 'every attempt spent');
  t.notOk(await db('products').where({ tenant_id: tenantId, id: 'b' }).first(), 'the pages before the refused one were deleted');
  t.ok(
    await db('products')
      .where({ tenant_id: tenantId, id: fid(5000) })
      .first(),
    'the refused page was not',
  );
  t.ok((await count('product_sync_items', { tenant_id: tenantId })) > 0, 'the seen set is still there');

  // The database takes deletes again; the merchant sends nothing. Past the 15-minute hold (and the sweep's grace).
  await db.raw('DROP TRIGGER refuse_delete ON products');
  await db('product_syncs')
    .where({ tenant_id: tenantId, sync_id: 'big-1' })
    .update({ completed_at: db.raw(`completed_at - interval '16 minutes'`) });

  const succeeded = await waitFor(
    async () => ((j) => (j.status === 'succeeded' ? j : null))(await job()),
    90_000,
    () => `the job succeeding (${worker.log().slice(-1000)})`,
  );
  t.match(
    succeeded,
    { id: jobId, status: 'succeeded', progress: 1, error: null, result: { deleted: FILLERS - SENT_FILLERS + 1 } },
    'its deleted count spans both runs: every unsent filler and b',
  );
  const left = new Set<string>(await db('products').where({ tenant_id: tenantId }).pluck('id'));
  t.equal(left.size, SENT_FILLERS + 2, 'a, c and the sent fillers');
  t.ok(left.has('a') && left.has('c') && left.has(fid(0)) && left.has(fid(SENT_FILLERS - 1)), 'sent products kept');
  t.notOk(left.has('b') || left.has(fid(SENT_FILLERS)) || left.has(fid(5000)) || left.has(fid(FILLERS - 1)), 'unsent products gone');
  t.equal(await count('product_sync_items', { tenant_id: tenantId }), 0, 'the seen set is gone');
  const rows = (await h.api.call('GET', '/v1/jobs?kind=sync', { key })).body.data;
  t.same(
    rows.map((r: { id: string }) => r.id),
    [jobId],
    'the same job row, no second one',
  );
  await waitFor(async () => !(await searchIds(h, key)('zebra')).includes('b'), 30_000, 'b out of search');
  t.equal((await send({ replace_all: true, sync_id: 'big-1', upsert: [product('c')] })).status, 200, 'the sync_id starts a new sync');
});

t.test('a completed sync whose job was never started (the API went after its commit) gets one from the sweep', async (t) => {
  const { id: tenantId, key } = await h.tenant('Store L');
  const send = (body: Record<string, unknown>) => h.api.call('POST', '/v1/products/batch', { key, body });
  t.equal((await send({ upsert: [product('a'), product('b'), product('c')] })).status, 200);
  await fill(db, tenantId);
  t.equal((await send({ replace_all: true, sync_id: 'lost-1', upsert: [product('a')] })).status, 200);
  // No worker yet: the completing batch's job waits in Redis. Then both it and its row go, as if the API had died between its commit and the job.
  const done = await send({ replace_all: true, sync_id: 'lost-1', sync_complete: true, upsert: [product('c')] });
  t.equal(done.status, 200);
  const lostId = done.body.sync_job.id as string;
  await (await h.api.deps.queues.get('catalog').getJob(`finish-sync-${lostId}`))?.remove();
  await db('jobs').where({ id: lostId }).delete();
  await db('product_syncs')
    .where({ tenant_id: tenantId, sync_id: 'lost-1' })
    .update({ completed_at: db.raw(`completed_at - interval '2 minutes'`) });

  const worker = spawnWorker(t, h.config, { SWEEP_EVERY_MS: '10000' });
  const job = await waitFor(
    async () => {
      const rows = (await h.api.call('GET', '/v1/jobs?kind=sync', { key })).body.data;
      return rows?.length && ended(rows[0]) ? rows[0] : null;
    },
    90_000,
    () => `a sync job ending (${worker.log().slice(-1000)})`,
  );
  t.match(job, { kind: 'sync', status: 'succeeded', result: { deleted: FILLERS + 1 } }, 'every filler and b');
  t.match(await h.api.deps.repos.jobs.get(job.id), { params: { sync_id: 'lost-1' } });
  t.same((await db('products').where({ tenant_id: tenantId }).pluck('id')).sort(), ['a', 'c']);
  t.equal(await count('product_sync_items', { tenant_id: tenantId }), 0, 'the seen set is gone');
});
