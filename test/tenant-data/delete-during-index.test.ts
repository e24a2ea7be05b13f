import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';
import { loadProducts } from '../helpers/catalog.js';

// A store's index batch that read its products before the store's deletion and writes their
// search documents after it: those documents (names, brands, prices) must not outlive the store.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const db = h.api.deps.db;
const a = await h.tenant('leaving');
const b = await h.tenant('staying');
const lamps = (name: string) =>
  Array.from({ length: 5 }, (_, i) => ({ id: `${name}-${i}`, name: { en: `${name} lamp ${i}` }, price: 10 + i, currency: 'USD' }));
await loadProducts(h, a.key, a.id, lamps('alpha'));
await loadProducts(h, b.key, b.id, lamps('beta'));
const rows = async (table: string, tenantId: string) => Number((await db(table).where({ tenant_id: tenantId }).count({ n: '*' }))[0].n);

t.test('search documents written by a batch that was running during the deletion are gone with the store', async (t) => {
  // The store's next batch is held at its search document write, after it read its products.
  const hold = await holdWrites(db, { name: 'hold_docs', table: 'search_docs', on: 'INSERT', when: `NEW.tenant_id = '${a.id}'` });
  t.teardown(() => hold.remove());
  const batch = await h.api.call('POST', '/v1/products/batch', {
    key: a.key,
    body: { upsert: [{ id: 'alpha-new', name: { en: 'alpha desk lamp' }, price: 30, currency: 'USD' }] },
  });
  t.equal(batch.status, 200);
  await eventually(async () => (await lockWaiters(db)) > 0, 20_000);

  const started = await h.api.call('POST', '/v1/data/delete', { key: a.key, body: { confirm: a.id } });
  t.equal(started.status, 202);
  await eventually(async () => db('tenant_deletions').where({ deleted_tenant: a.id }).first(), 30_000);
  await hold.release();
  // Every catalog job has run its course (written, or failed and retried until done).
  const catalog = h.api.deps.queues.get('catalog');
  await eventually(async () => {
    const counts = await catalog.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
    return Object.values(counts).every((n) => n === 0);
  }, 60_000);

  t.equal(await rows('search_docs', a.id), 0, 'no search document of the deleted store');
  t.equal(await rows('search_cards', a.id), 0, 'no search card of the deleted store');
  t.equal(await rows('search_docs', b.id), 5, "the other store's documents stay");
  t.equal((await h.api.call('GET', '/v1/search?q=lamp', { key: b.key })).body.total, 5);
});
