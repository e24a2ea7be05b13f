import t from 'tap';
import { setup } from '../helpers/harness.js';
import { startTestWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { analyzeChanged } from '../../shared/db/analyze.js';

// Statistics after a bulk change, where autovacuum is off (as on this machine) or behind.
const h = await setup({ VOCAB_DEBOUNCE_MS: '200' });
const workers = await startTestWorkers(h.config);
t.teardown(async () => {
  await workers.close();
  await h.close();
});
const { db } = h.api.deps;
const lastAnalyze = async (table: string) => (await db.raw('SELECT last_analyze FROM pg_stat_user_tables WHERE relname = ?', [table])).rows[0]?.last_analyze ?? null;

t.test('tables changed by a bulk load are analyzed once; unchanged ones are left alone', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  await loadProducts(h, key, tenantId, Array.from({ length: 300 }, (_, i) => ({ id: `p${i}`, name: { en: `Product ${i}` }, price: 10, currency: 'USD' })));
  // The vocabulary rebuild after the load analyzes; the counters reach pg_stat a moment after each commit.
  await waitFor(async () => (await lastAnalyze('search_docs')) && (await lastAnalyze('products')), 20_000, 'analyzed after the load');
  const before = await lastAnalyze('search_docs');
  t.same(await analyzeChanged(db), [], 'nothing changed since');
  t.same(await lastAnalyze('search_docs'), before);
});
