import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { statsSettled } from '../helpers/pg-stats.js';
import { analyzeChanged, flushGinPending } from '../../shared/maintenance/analyze.js';
import { buildSearchDoc } from '../../shared/catalog/search-doc.js';
import { canonicalProduct, toStored } from '../../shared/catalog/canonical.js';

// Statistics and GIN pending lists after a bulk change, where autovacuum is off (as on this machine) or behind.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { db } = h.api.deps;
const lastAnalyze = async (table: string) =>
  (await db.raw('SELECT last_analyze FROM pg_stat_user_tables WHERE relname = ?', [table])).rows[0]?.last_analyze ?? null;

t.test('tables changed by a bulk load are analyzed once; unchanged ones are left alone', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  await loadProducts(
    h,
    key,
    tenantId,
    Array.from({ length: 300 }, (_, i) => ({ id: `p${i}`, name: { en: `Product ${i}` }, price: 10, currency: 'USD' })),
  );
  // The vocabulary rebuild after the load analyzes; the counters reach pg_stat a moment after each commit.
  await waitFor(async () => (await lastAnalyze('search_docs')) && (await lastAnalyze('products')), 20_000, 'analyzed after the load');
  // A backend reports its change counters when idle, at most once a second, and the pipeline's
  // indexed marks (products, product_index_state) land a moment after the products are searchable:
  // on a busy machine those can reach pg_stat after the stage's ANALYZE and count as changes since
  // it (one more ANALYZE, harmless). Once every write and its counters are in, a check finds nothing changed.
  await waitFor(
    async () => Number((await db.raw(`SELECT n_live_tup FROM pg_stat_user_tables WHERE relname = 'products'`)).rows[0]?.n_live_tup ?? 0) >= 300,
    20_000,
    'counters reported',
  );
  await statsSettled(db, ['products', 'product_index_state', 'search_docs', 'search_vocab']);
  await analyzeChanged(db);
  const before = await lastAnalyze('search_docs');
  t.same(await analyzeChanged(db), [], 'nothing changed since');
  t.same(await lastAnalyze('search_docs'), before);
});

// pgstattuple ships with the server (contrib); it reads how much waits in a GIN pending list.
await db.raw('CREATE EXTENSION IF NOT EXISTS pgstattuple');
const pendingPages = async () => Number((await db.raw(`SELECT pending_pages FROM pgstatginindex('search_docs_tsv')`)).rows[0].pending_pages);

t.test('flushGinPending merges waiting entries into the index; the documents are still found', async (t) => {
  const { id: tenantId } = await h.tenant();
  const docs = Array.from({ length: 200 }, (_, i) =>
    buildSearchDoc(
      { id: `g${i}`, name: { en: `Pendingword gadget ${i}` }, price: '5', sale_price: null, currency: 'USD', in_stock: true, visible: true },
      new Map(),
      new Date(),
    ),
  );
  await h.api.deps.engine.upsert(tenantId, docs, { facetFields: [], locales: ['en'] });
  t.ok((await pendingPages()) > 0, 'inserts park their entries in the pending list');
  const flushed = await flushGinPending(db);
  t.ok(flushed.search_docs_tsv > 0, 'the text index had pending pages');
  t.equal(await pendingPages(), 0);
  t.equal((await flushGinPending(db)).search_docs_tsv, 0, 'nothing left the second time');
  const found = await h.api.deps.engine.search({ tenantId, tokens: ['pendingword'], offset: 0, limit: 0 });
  t.equal(found.total, 200);
});

t.test('the vocabulary rebuild after a load leaves nothing in the pending list', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  await loadProducts(
    h,
    key,
    tenantId,
    Array.from({ length: 300 }, (_, i) => ({ id: `q${i}`, name: { en: `Flushed item ${i}` }, price: 10, currency: 'USD' })),
  );
  // 300 documents stay far below the pending list's size limit: only a flush empties it.
  await waitFor(async () => (await pendingPages()) === 0, 20_000, 'pending list flushed after the load');
  const found = await h.api.deps.engine.search({ tenantId, tokens: ['flushed'], offset: 0, limit: 0 });
  t.equal(found.total, 300);
});

t.test('a new store whose rows reuse freed space is analyzed: changed rows count, not only table growth', async (t) => {
  const { products } = h.api.deps.repos;
  const rows = (prefix: string) =>
    Array.from({ length: 1500 }, (_, i) =>
      canonicalProduct(toStored({ id: `${prefix}${i}`, name: { en: `Reused page ${i}` }, price: 3, currency: 'USD', in_stock: true, visible: true })),
    );
  const gone = await h.tenant('Gone store');
  await products.writeBatch(gone.id, { upserts: rows('old'), deletes: [] });
  await db('products').where({ tenant_id: gone.id }).delete();
  // Free the space without giving it back to the file system, and take statistics of the emptied table.
  await db.raw('VACUUM (TRUNCATE false) products');
  await db.raw('ANALYZE products');
  const { id: tenantId } = await h.tenant('New store');
  await products.writeBatch(tenantId, { upserts: rows('new'), deletes: [] });
  const {
    rows: [size],
  } = await db.raw(`SELECT pg_relation_size('products') / current_setting('block_size')::int AS pages, relpages FROM pg_class WHERE relname = 'products'`);
  t.ok(
    Number(size.pages) <= 1.1 * Number(size.relpages) + 8,
    `the table did not grow (${size.pages} pages, ${size.relpages} at the last analyze): growth alone would miss it`,
  );
  await waitFor(
    async () => Number((await db.raw(`SELECT n_mod_since_analyze AS n FROM pg_stat_user_tables WHERE relname = 'products'`)).rows[0].n) >= 1500,
    10_000,
    'the changes reported',
  );
  t.same(await analyzeChanged(db, ['products']), ['products'], '1,500 changed rows call for ANALYZE');
  t.same(await analyzeChanged(db, ['products']), [], 'and once analyzed, nothing more');
});
