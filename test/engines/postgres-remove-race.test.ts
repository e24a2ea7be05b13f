import t from 'tap';
import { PLAIN_SETTINGS as SETTINGS, engineStore, searchDoc } from '../helpers/engine-store.js';
import { waitFor } from '../helpers/wait.js';

// A remove racing an upsert leaves each product whole: its document and its card both, or neither.
// The remove is held on a row lock of one of its products (another transaction holds it) while an
// upsert of a product it also names commits; then the lock goes and the remove finishes.
const tenantId = 'ten_removerace';
const { db, engine } = await engineStore(t, tenantId, 6);

const has = async (table: string, id: string) => (await db(table).where({ tenant_id: tenantId, product_id: id }).first()) !== undefined;

t.test('a product written while a remove of it runs is whole afterwards', async (t) => {
  await engine.upsert(tenantId, [searchDoc('held', 'lamp held')], SETTINGS);
  const trx = await db.transaction();
  await trx.raw('SELECT 1 FROM search_docs WHERE tenant_id = ? AND product_id = ? FOR UPDATE', [tenantId, 'held']);
  const removal = engine.remove(tenantId, ['held', 'fresh']);
  await waitFor(
    async () =>
      (
        await db.raw(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%delete from%search_docs%'`,
        )
      ).rows.length,
    10_000,
    'the remove waiting on the held row',
  );
  await engine.upsert(tenantId, [searchDoc('fresh', 'lamp fresh')], SETTINGS);
  await trx.commit();
  await removal;

  t.same(
    { doc: await has('search_docs', 'held'), card: await has('search_cards', 'held') },
    { doc: false, card: false },
    'the product the remove waited for is gone whole',
  );
  const fresh = { doc: await has('search_docs', 'fresh'), card: await has('search_cards', 'fresh') };
  t.equal(fresh.doc, fresh.card, `the product written meanwhile is whole or gone (${JSON.stringify(fresh)})`);
  const res = await engine.search({ tenantId, tokens: [], offset: 0, limit: 10 });
  t.equal(res.hits.length, res.total, 'a search shows every product it counts (none is counted without its card)');
});
