import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { runPurge } from '../maintenance/run-purge.js';

// Full syncs left open by a merchant's crashed job, through the HTTP API, a real worker running
// purge-expired, and real Postgres. Only the syncs' idle clocks are moved back (started_at stays,
// so the products stored before a sync are still older than it and completion may delete them).
const { h } = await setupWithWorkers();
const { db } = h.api.deps;
const IDLE_DAYS = h.config.retention.syncIdleDays;
const product = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: { en: `Product ${id}` }, price: 10, currency: 'USD', ...extra });

async function store(name: string) {
  const { id, key } = await h.tenant(name);
  const send = (body: Record<string, unknown>) => h.api.call('POST', '/v1/products/batch', { key, body });
  const ids = async () => (await h.api.call('GET', '/v1/products?limit=50', { key })).body.data.map((p: { id: string }) => p.id);
  const price = async (productId: string) => (await h.api.call('GET', `/v1/products/${productId}`, { key })).body.product.price;
  const items = async (syncId: string) =>
    (await db('product_sync_items').where({ tenant_id: id, sync_id: syncId }).orderBy('product_id').pluck('product_id')) as string[];
  const sync = (syncId: string) => db('product_syncs').where({ tenant_id: id, sync_id: syncId }).first();
  /** The sync's last batch was `hours` earlier than it was. */
  const idle = (syncId: string, hours: number) =>
    db('product_syncs')
      .where({ tenant_id: id, sync_id: syncId })
      .update({ last_batch_at: db.raw(`last_batch_at - make_interval(secs => ?)`, [hours * 3600]) });
  const r = await send({ upsert: ['a', 'b', 'c', 'd', 'e', 'f'].map((p) => product(p)) });
  t.equal(r.status, 200);
  return { id, send, ids, price, items, sync, idle };
}

const runStage = async (run: string) => (await runPurge(h, run)).returnvalue.deleted as Record<string, number>;

t.test('an idle sync expires: purged in batches, its batches and completion answer 410 with nothing written or deleted', async (t) => {
  const a = await store('Store A');
  const b = await store('Store B');
  // Store A: a sync whose job crashed after one batch, and one whose job is slow but alive.
  t.equal((await a.send({ replace_all: true, sync_id: 'nightly-1', upsert: ['a', 'b', 'c', 'd', 'e'].map((p) => product(p)) })).status, 200);
  t.equal((await a.send({ replace_all: true, sync_id: 'slow-1', upsert: [product('a'), product('b')] })).status, 200);
  // Store B: the same sync_id, still active.
  t.equal((await b.send({ replace_all: true, sync_id: 'nightly-1', upsert: [product('a'), product('b')] })).status, 200);

  await a.idle('nightly-1', IDLE_DAYS * 24 + 1);
  // Each batch restarts the idle clock: two pauses just inside the bound add up to far more than it.
  await a.idle('slow-1', IDLE_DAYS * 24 - 1);
  t.equal((await a.send({ replace_all: true, sync_id: 'slow-1', upsert: [product('c')] })).status, 200);
  await a.idle('slow-1', IDLE_DAYS * 24 - 1);

  // Expired by its idle time before any purge ran: the batch is refused whole.
  const late = await a.send({ replace_all: true, sync_id: 'nightly-1', upsert: [product('f', { price: 99 }), product('new')] });
  t.equal(late.status, 410);
  t.equal(late.body.error.code, 'sync_expired');
  t.match(late.body.error.message, /new sync_id/);
  t.same(late.body.error.details, [{ in: 'body', field: 'sync_id', code: 'expired', message: late.body.error.details[0].message }]);
  t.equal(await a.price('f'), '10', 'no partial write: the product stays as it was');
  t.same(await a.ids(), ['a', 'b', 'c', 'd', 'e', 'f'], 'no product added (new) or deleted');
  t.equal((await a.sync('nightly-1')).batches, 1, 'the refused batch is not counted');

  const first = await runStage('syncs-first');
  t.equal(first.product_sync_items, 5, "the expired sync's seen set (5 items, batches of 2)");
  t.equal(first.product_syncs, 0, 'its row stays, to answer sync_expired');
  t.same(await a.items('nightly-1'), []);
  t.ok((await a.sync('nightly-1')).expired_at, 'marked expired');
  t.same(await a.items('slow-1'), ['a', 'b', 'c'], 'the active sync keeps its seen set');
  t.equal((await a.sync('slow-1')).expired_at, null);
  t.same(await b.items('nightly-1'), ['a', 'b'], "the other store's sync of the same id is untouched");

  const done = await a.send({ replace_all: true, sync_id: 'nightly-1', sync_complete: true, upsert: [product('f', { price: 99 })] });
  t.equal(done.status, 410, 'completion of the purged sync is refused');
  t.equal(done.body.error.code, 'sync_expired');
  t.same(await a.ids(), ['a', 'b', 'c', 'd', 'e', 'f'], 'nothing deleted (a partial seen set would have deleted a to e)');
  t.equal(await a.price('f'), '10');

  const slow = await a.send({ replace_all: true, sync_id: 'slow-1', sync_complete: true, upsert: [product('d')] });
  t.equal(slow.status, 200, 'the active sync completes');
  t.equal(slow.body.deleted, 2, 'e and f: never sent by it');
  t.same(await a.ids(), ['a', 'b', 'c', 'd']);
  t.same(await a.items('slow-1'), [], "a completed sync's seen set goes");
  t.ok((await a.sync('slow-1')).completed_at, 'its row holds the sync_id a while, as completed');

  const other = await b.send({ replace_all: true, sync_id: 'nightly-1', sync_complete: true, upsert: [product('c')] });
  t.equal(other.status, 200, "store B's sync of the same id completes");
  t.same(await b.ids(), ['a', 'b', 'c']);

  const second = await runStage('syncs-second');
  t.ok(
    Object.values(second).every((n) => n === 0),
    `a second run deletes nothing: ${JSON.stringify(second)}`,
  );
  t.equal((await a.send({ replace_all: true, sync_id: 'nightly-1', upsert: [product('a')] })).status, 410, 'still expired');
});

t.test('an expired sync is remembered 30 days; after that its sync_id starts a new sync', async (t) => {
  const c = await store('Store C');
  await c.send({ replace_all: true, sync_id: 'weekly', upsert: [product('a')] });
  await c.idle('weekly', IDLE_DAYS * 24 + 1);
  const first = await runStage('tombstone-first');
  t.equal(first.product_sync_items, 1);
  t.equal(first.product_syncs, 0);
  await db('product_syncs')
    .where({ tenant_id: c.id, sync_id: 'weekly' })
    .update({ expired_at: db.raw(`expired_at - interval '29 days'`) });
  t.equal((await runStage('tombstone-29')).product_syncs, 0, '29 days after it expired: kept');
  // Its idle clock no longer decides (as after SYNC_IDLE_DAYS is raised): its seen set is gone for good.
  await db('product_syncs').where({ tenant_id: c.id, sync_id: 'weekly' }).update({ last_batch_at: db.fn.now() });
  t.equal((await c.send({ replace_all: true, sync_id: 'weekly', upsert: [product('a')] })).status, 410);
  await db('product_syncs')
    .where({ tenant_id: c.id, sync_id: 'weekly' })
    .update({ expired_at: db.raw(`expired_at - interval '2 days'`) });
  t.equal((await runStage('tombstone-31')).product_syncs, 1, '31 days after: gone');
  const fresh = await c.send({ replace_all: true, sync_id: 'weekly', sync_complete: true, upsert: ['a', 'b'].map((p) => product(p)) });
  t.equal(fresh.status, 200, 'the sync_id is free again: a new one-batch sync');
  t.equal(fresh.body.deleted, 4, 'c to f: this new sync never sent them');
});

t.test('the retry of a completing batch whose answer was lost is refused, not a one-batch sync deleting the rest', async (t) => {
  const d = await store('Store D');
  t.equal((await d.send({ replace_all: true, sync_id: 'nightly-2', upsert: ['a', 'b', 'c'].map((p) => product(p)) })).status, 200);
  t.equal((await d.send({ replace_all: true, sync_id: 'nightly-2', upsert: ['d', 'e'].map((p) => product(p)) })).status, 200);
  const last = { replace_all: true, sync_id: 'nightly-2', sync_complete: true, upsert: [product('f', { price: 12 })] };
  const done = await d.send(last);
  t.equal(done.status, 200);
  t.equal(done.body.deleted, 0, 'the sync sent every product');
  // The merchant never saw that answer and sends the last batch again, without an Idempotency-Key.
  const retry = await d.send(last);
  t.equal(retry.status, 200, 'the same body again changes nothing (spec batch rule 2)');
  t.match(retry.body, { upserted: 0, unchanged: 1, deleted: 0 });
  t.same(await d.ids(), ['a', 'b', 'c', 'd', 'e', 'f'], 'nothing deleted (as a new one-batch sync it would have deleted a to e)');
  const early = await d.send({ ...last, sync_complete: false });
  t.equal(early.status, 409, 'another batch under the sync_id while it is held: a new sync under a reused id, too soon');
  t.equal(early.body.error.code, 'sync_completed');
  t.match(early.body.error.message, /new sync_id/);
  t.same(early.body.error.details, [{ in: 'body', field: 'sync_id', code: 'completed', message: early.body.error.details[0].message }]);

  // Past the hold, the same sync_id starts a new sync (a store reusing one id for each night's sync).
  await db('product_syncs')
    .where({ tenant_id: d.id, sync_id: 'nightly-2' })
    .update({ completed_at: db.raw(`completed_at - interval '16 minutes'`), last_batch_at: db.raw(`last_batch_at - interval '30 days'`) });
  t.equal((await runStage('completed-held')).product_sync_items, 0, 'a completed sync is not expired by its idle clock');
  t.equal((await d.sync('nightly-2')).expired_at, null);
  const next = await d.send({ replace_all: true, sync_id: 'nightly-2', upsert: ['a', 'b'].map((p) => product(p)) });
  t.equal(next.status, 200, 'the next sync under the same id');
  t.equal((await d.sync('nightly-2')).batches, 1, 'counted afresh');
  const end = await d.send({ replace_all: true, sync_id: 'nightly-2', sync_complete: true, upsert: [product('c')] });
  t.equal(end.status, 200);
  t.equal(end.body.deleted, 3, 'd, e and f: the new sync never sent them');
  t.same(await d.ids(), ['a', 'b', 'c']);
});
