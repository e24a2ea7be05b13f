import t from 'tap';
import { setup } from '../helpers/harness.js';
import { eventually, startTestWorkers } from '../helpers/workers.js';
import { searchIds } from '../helpers/catalog.js';
import { FILLERS, SENT_FILLERS, fid, fill, product } from './big-store.js';

// A full sync of a store over SYNC_INLINE_PRODUCTS: its completing batch answers at once with a
// `sync` job, and finish-sync (a real worker, started when the test says) deletes what the sync
// never sent. Real API, Postgres and Redis; the filler products are written with SQL (a copy of a
// stored product under other ids, older than the sync) to make the store large quickly.
const h = await setup();
t.teardown(() => h.close());
const { db } = h.api.deps;

async function store(name: string) {
  const { id, key } = await h.tenant(name);
  const send = (body: Record<string, unknown>) => h.api.call('POST', '/v1/products/batch', { key, body });
  t.equal((await send({ upsert: [product('a'), product('b', 'zebra lamp'), product('c')] })).status, 200);
  return { id, key, send };
}

t.test("a large store's full sync: the completing batch answers at once, a sync job deletes the unsent products", async (t) => {
  const a = await store('Store A');
  const b = await store('Store B');
  await fill(db, a.id);
  const workers = await startTestWorkers(h.config);
  await eventually(async () => (await searchIds(h, a.key)('zebra')).includes('b'), 30_000);

  const first = await a.send({
    replace_all: true,
    sync_id: 'big-1',
    upsert: [product('a'), ...Array.from({ length: SENT_FILLERS }, (_, i) => product(fid(i)))],
  });
  t.equal(first.status, 200);
  // Written after the sync started, by a plain batch: the sync never sent it, and it survives.
  t.equal((await a.send({ upsert: [product('late')] })).status, 200);
  await workers.close();

  const done = await a.send({ replace_all: true, sync_id: 'big-1', sync_complete: true, upsert: [product('c')], delete: ['a'] });
  t.equal(done.status, 200);
  t.equal(done.body.deleted, 1, 'only what the batch deleted itself: a');
  t.match(done.body.sync_job, { kind: 'sync', status: 'queued' });
  const jobId = done.body.sync_job.id as string;
  t.equal(await h.api.deps.repos.products.count(a.id), FILLERS + 3, 'nothing unsent deleted yet: the job does it');

  // Sent again (its answer lost), the completing batch is a plain batch and joins the pending job.
  const again = await a.send({ replace_all: true, sync_id: 'big-1', sync_complete: true, upsert: [product('c')], delete: ['a'] });
  t.equal(again.status, 200);
  t.equal(again.body.sync_job?.id, jobId, 'the same job');
  t.equal((await a.send({ replace_all: true, sync_id: 'big-1', upsert: [product('c')] })).status, 409, 'the sync is completed');
  // Past the 15-minute hold the sync_id still cannot start a new sync while its seen set is in use.
  await db('product_syncs')
    .where({ tenant_id: a.id, sync_id: 'big-1' })
    .update({ completed_at: db.raw(`completed_at - interval '16 minutes'`) });
  t.equal((await a.send({ replace_all: true, sync_id: 'big-1', upsert: [product('c')] })).status, 409, 'not reused while its cleanup is pending');

  const workers2 = await startTestWorkers(h.config);
  t.teardown(() => workers2.close());
  const job = await eventually(async () => {
    const j = (await h.api.call('GET', `/v1/jobs/${jobId}`, { key: a.key })).body;
    return ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : null;
  }, 60_000);
  t.match(job, { status: 'succeeded', progress: 1, result: { deleted: FILLERS - SENT_FILLERS + 1 } }, 'every unsent filler and b');

  const left = new Set<string>(await db('products').where({ tenant_id: a.id }).pluck('id'));
  t.equal(left.size, SENT_FILLERS + 2);
  t.ok(left.has('c') && left.has('late') && left.has(fid(0)) && left.has(fid(SENT_FILLERS - 1)), 'sent and later products kept');
  t.notOk(left.has('b') || left.has('a') || left.has(fid(SENT_FILLERS)), 'unsent and deleted products gone');
  t.equal(Number((await db('product_sync_items').where({ tenant_id: a.id }).count({ n: '*' }))[0].n), 0, 'the seen set is gone');
  await eventually(async () => !(await searchIds(h, a.key)('zebra')).includes('b'), 30_000);

  t.same((await db('products').where({ tenant_id: b.id }).orderBy('id').pluck('id')).sort(), ['a', 'b', 'c'], 'store B untouched');
  t.same(await searchIds(h, b.key)('zebra'), ['b'], "store B's b still searchable");
  t.equal((await a.send({ replace_all: true, sync_id: 'big-1', upsert: [product('c')] })).status, 200, 'cleanup over, past the hold: a new sync');
});

t.test('a small store still completes in the request: deleted counts everything, no job', async (t) => {
  const s = await store('Store S');
  t.equal((await s.send({ replace_all: true, sync_id: 'small-1', upsert: [product('a')] })).status, 200);
  const done = await s.send({ replace_all: true, sync_id: 'small-1', sync_complete: true, upsert: [product('c')] });
  t.equal(done.status, 200);
  t.equal(done.body.deleted, 1, 'b');
  t.notOk('sync_job' in done.body);
  t.same((await db('products').where({ tenant_id: s.id }).orderBy('id').pluck('id')).sort(), ['a', 'c']);
});

t.test("a small store's completion deleting more than one index job's 5,000 ids answers 200 and hands them all to index jobs", async (t) => {
  const s = await store('Store M');
  // 6,000 fillers: still done in the request (under 10,000), more deletions than one index job carries.
  await db.raw(
    `INSERT INTO products (tenant_id, id, data, content_hash, updated_at)
     SELECT p.tenant_id, 'f' || lpad(g::text, 5, '0'), jsonb_set(p.data, '{id}', to_jsonb('f' || lpad(g::text, 5, '0'))), p.content_hash, now() - interval '1 hour'
       FROM products p, generate_series(0, 5999) g WHERE p.tenant_id = ? AND p.id = 'a'`,
    [s.id],
  );
  const done = await s.send({ replace_all: true, sync_complete: true, upsert: [product('c')] });
  t.equal(done.status, 200, JSON.stringify(done.body).slice(0, 300));
  t.equal(done.body.deleted, 6002, 'every filler, a and b');
  t.same(await db('products').where({ tenant_id: s.id }).pluck('id'), ['c']);
  const jobs = await h.api.deps.queues.get('catalog').getJobs(['waiting', 'prioritized', 'delayed']);
  const deletes = jobs.filter((j) => j.data.input?.tenantId === s.id).flatMap((j) => j.data.input.deletes as string[]);
  t.equal(new Set(deletes).size, 6002, 'every deleted id handed to an index job (vectors, translations)');
});
