import t, { type Test } from 'tap';
import { setup } from '../helpers/harness.js';
import { eventually, startTestWorkers } from '../helpers/workers.js';
import { FILLERS, SENT_FILLERS, fid, fill, product } from './big-store.js';

// The spec bounds a sync_id only by its length (max 64): any printable text names a full sync,
// spaces, slashes and Arabic letters included, through completion (inline for a small store, by a
// `sync` job for a large one). Control characters, U+0000 and lone surrogates are refused with a 400.
const h = await setup();
t.teardown(() => h.close());
const { db } = h.api.deps;
const SYNC_ID = 'nightly sync / متجر الرياض 2026-06';

async function store(t: Test, name: string) {
  const { id, key } = await h.tenant(name);
  const send = (body: Record<string, unknown>) => h.api.call('POST', '/v1/products/batch', { key, body });
  t.equal((await send({ upsert: [product('a'), product('b'), product('c')] })).status, 200, `${name} loaded`);
  return { id, key, send };
}
const ids = async (tenantId: string) => ((await db('products').where({ tenant_id: tenantId }).pluck('id')) as string[]).sort();

t.test('a small store: a sync named with spaces, slashes and Arabic completes in the request', async (t) => {
  const s = await store(t, 'Store S');
  const other = await store(t, 'Store O');
  const first = await s.send({ replace_all: true, sync_id: SYNC_ID, upsert: [product('a')] });
  t.equal(first.status, 200, JSON.stringify(first.body));
  // Another store's open sync of the same name is its own.
  t.equal((await other.send({ replace_all: true, sync_id: SYNC_ID, upsert: [product('b')] })).status, 200);
  const done = await s.send({ replace_all: true, sync_id: SYNC_ID, sync_complete: true, upsert: [product('c')] });
  t.equal(done.status, 200, JSON.stringify(done.body));
  t.equal(done.body.deleted, 1, 'b was never sent');
  t.same(await ids(s.id), ['a', 'c']);
  t.same(await ids(other.id), ['a', 'b', 'c'], "the other store's sync deleted nothing");
  t.equal((await db('product_syncs').where({ tenant_id: s.id, sync_id: SYNC_ID }).first())?.sync_id, SYNC_ID, 'stored as sent');
  const again = await s.send({ replace_all: true, sync_id: SYNC_ID, upsert: [product('a')] });
  t.equal(again.status, 409, 'completed: held under its exact name');
  t.equal(again.body.error.code, 'sync_completed');
  t.match(again.body.error.message, SYNC_ID);
});

t.test('a large store: the sync job of such a sync_id deletes the unsent products and ends succeeded', async (t) => {
  const a = await store(t, 'Store A');
  await fill(db, a.id);
  const syncId = `${'ب'.repeat(40)} / ${'x y'.repeat(7)}`;
  t.equal([...syncId].length, 64);
  const first = await a.send({ replace_all: true, sync_id: syncId, upsert: Array.from({ length: SENT_FILLERS }, (_, i) => product(fid(i))) });
  t.equal(first.status, 200, JSON.stringify(first.body).slice(0, 300));
  const done = await a.send({ replace_all: true, sync_id: syncId, sync_complete: true, upsert: [product('a')] });
  t.equal(done.status, 200, JSON.stringify(done.body).slice(0, 300));
  t.match(done.body.sync_job, { kind: 'sync' });
  const workers = await startTestWorkers(h.config);
  t.teardown(() => workers.close());
  const job = await eventually(async () => {
    const j = (await h.api.call('GET', `/v1/jobs/${done.body.sync_job.id}`, { key: a.key })).body;
    return ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : null;
  }, 60_000);
  t.match(job, { status: 'succeeded', result: { deleted: FILLERS - SENT_FILLERS + 2 } }, 'every unsent filler, b and c');
  t.same((await db('jobs').where({ id: job.id }).first()).params, { sync_id: syncId }, 'the jobs row names the sync as sent');
  t.equal((await ids(a.id)).length, SENT_FILLERS + 1);
  t.equal(Number((await db('product_sync_items').where({ tenant_id: a.id }).count({ n: '*' }))[0].n), 0, 'the seen set is gone');
});

t.test('a sync_id with control characters, U+0000, a lone surrogate or over 64 characters is refused with a 400', async (t) => {
  const s = await store(t, 'Store R');
  const cases: Array<[string, string]> = [
    ['line\nbreak', 'invalid_format'],
    ['tab\there', 'invalid_format'],
    ['del\u007f', 'invalid_format'],
    ['c1\u0085', 'invalid_format'],
    ['nul\u0000', 'invalid_text'],
    ['half \ud83d', 'invalid_text'],
    ['ب'.repeat(65), 'too_long'],
    ['', 'too_short'],
  ];
  for (const [syncId, code] of cases) {
    const res = await s.send({ replace_all: true, sync_id: syncId, upsert: [product('z')] });
    t.equal(res.status, 400, JSON.stringify(syncId));
    t.match(res.body.error, { details: [{ in: 'body', field: 'sync_id', code }] }, JSON.stringify(syncId));
  }
  t.same(await ids(s.id), ['a', 'b', 'c'], 'nothing written');
  t.equal(Number((await db('product_syncs').where({ tenant_id: s.id }).count({ n: '*' }))[0].n), 0, 'no sync opened');
});
