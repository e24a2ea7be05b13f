import t from 'tap';
import { createTestDatabase } from '../helpers/db.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { PostgresEngine } from '../../shared/engines/lexical/postgres.engine.js';
import type { IndexSettings, SearchDoc } from '../../shared/engines/lexical/port.js';

// Two writers of the same products into one generation (a catalog batch while a reindex builds it,
// or two workers with overlapping batches) lock the rows in the same order whatever order their
// batches come in: neither is killed as a deadlock's victim.
const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 6 });
t.teardown(async () => {
  await db.destroy();
  await database.drop();
});
const SETTINGS: IndexSettings = { facetFields: [], locales: ['en'] };
const tenantId = 'ten_writeorder';
await db('tenants').insert({ id: tenantId, name: 'write-order', locales: ['en'], default_locale: 'en' });

function doc(i: number, version: number): SearchDoc {
  const id = `p${String(i).padStart(5, '0')}`;
  return {
    id,
    name: { en: `lamp ${id}` },
    nameNorm: `lamp ${id}`,
    nameStem: `lamp ${id}`,
    brand: null,
    brandNorm: null,
    codes: [],
    categoryIds: [],
    categoryPaths: [],
    categoryText: '',
    attributeText: '',
    descriptionNorm: '',
    facets: {},
    price: i,
    inStock: true,
    visible: true,
    popularity: 0,
    margin: null,
    createdAt: 1_700_000_000_000,
    version,
    card: { id, name: { en: id }, url: null, image_url: null, price: '1', sale_price: null, currency: 'USD', in_stock: true, brand: null, category: null },
  };
}
const engine = new PostgresEngine(db);
const N = 3000;
await engine.upsert(
  tenantId,
  Array.from({ length: N }, (_, i) => doc(i, 1)),
  SETTINGS,
);

t.test('concurrent writes of the same products in opposite orders all succeed', async (t) => {
  const failures: string[] = [];
  for (let round = 2; round < 8; round++) {
    const forward = Array.from({ length: N }, (_, i) => doc(i, round));
    const backward = [...forward].reverse();
    const shuffled = [...forward].sort((a, b) => ((a.price * 7919) % N) - ((b.price * 7919) % N));
    const results = await Promise.allSettled([forward, backward, shuffled].map((docs) => engine.upsert(tenantId, docs, SETTINGS)));
    for (const r of results) if (r.status === 'rejected') failures.push(String((r.reason as Error).message).slice(-60));
  }
  t.same(failures, [], 'no writer was chosen as a deadlock victim');
  const { rows } = await db.raw('SELECT count(*)::int AS n, min(source_version)::int AS v FROM search_docs WHERE tenant_id = ?', [tenantId]);
  t.same(rows[0], { n: N, v: 7 }, 'every document at the last version');
});
