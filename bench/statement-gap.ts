import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { normalizeText, tokenize } from '../shared/text/normalize.js';
import { openBenchStore, recordSearches, type SearchedWords } from './lib/statement-floor.js';

/**
 * bench/statement-gap: per search of the bench:search mix, what Postgres spends on the plain engine
 * query (as typed, and on the words the service searched: typos corrected) against the service's
 * own statements (ranking, fallback, facets), plan + execution under EXPLAIN ANALYZE, best of 3,
 * on a kept bench database (`BENCH_KEEP=1 npm run bench:search`). Prints the sums and the searches
 * whose statements cost the most over the plain query on their words.
 *   npx tsx bench/statement-gap.ts <database url> [rows]
 */
type Statement = { sql: string; bindings: unknown[] };
type Row = { q: string; typed: number; searched: number; service: number; statements: number };
const [url, rowsArg] = process.argv.slice(2);
if (!url) throw new Error('usage: tsx bench/statement-gap.ts <database url> [rows]');
const { client, tenantId, mix } = await openBenchStore(url);
try {
  const service = await recordSearches({ DATABASE_URL: url, QUEUE_PREFIX: `pssgap${process.pid}` }, tenantId, mix);
  const typed = mix.map((m) => ({ tokens: tokenize(normalizeText(decodeURIComponent(m.split('&')[0]))), prefixLast: true }));
  const plain = { typed: await plainStatements(tenantId, typed), searched: await plainStatements(tenantId, service.words) };
  const rows: Row[] = [];
  for (let i = 0; i < mix.length; i++) {
    const best = { typed: Infinity, searched: Infinity, service: Infinity };
    for (let r = 0; r < 3; r++) {
      best.typed = Math.min(best.typed, await time(plain.typed[i]));
      best.searched = Math.min(best.searched, await time(plain.searched[i]));
      best.service = Math.min(best.service, await time(service.statements[i]));
    }
    rows.push({ q: decodeURIComponent(mix[i]), ...best, statements: service.statements[i].length });
  }
  const sum = (f: (r: Row) => number) => rows.reduce((a, r) => a + f(r), 0).toFixed(0);
  process.stdout.write(
    `${rows.length} searches, Postgres ms in all (plan + execution, best of 3): plain as typed ${sum((r) => r.typed)}, plain on the searched words ${sum((r) => r.searched)}, the service's statements ${sum((r) => r.service)}\n`,
  );
  process.stdout.write('   over   typed searched  service  search\n');
  for (const r of rows.sort((a, b) => b.service - b.searched - (a.service - a.searched)).slice(0, Number(rowsArg ?? 25)))
    process.stdout.write(
      `${(r.service - r.searched).toFixed(1).padStart(7)} ${r.typed.toFixed(1).padStart(7)} ${r.searched.toFixed(1).padStart(8)} ${r.service.toFixed(1).padStart(8)}  ${r.q} (${r.statements} statement${r.statements === 1 ? '' : 's'})\n`,
    );
} finally {
  await client.end();
}

/** The plain engine query's statements for each set of words (bench/search's "engine query alone"). */
async function plainStatements(tenantId: string, words: SearchedWords[]): Promise<Statement[][]> {
  const deps = createDeps(loadConfig({ ...process.env, DATABASE_URL: url, SEARCH_CACHE_TTL_MS: '0', QUEUE_PREFIX: `pssgapp${process.pid}` }));
  try {
    let current: Statement[] = [];
    deps.db.on('query', (q: Statement) => current.push({ sql: q.sql, bindings: q.bindings }));
    const out: Statement[][] = [];
    for (const w of words) {
      current = [];
      await deps.engine.search({ tenantId, ...w, offset: 0, limit: 20, facets: ['brand', 'category_tree', 'price', 'in_stock'] });
      out.push(current);
    }
    return out;
  } finally {
    await deps.close();
  }
}

async function time(set: Statement[]): Promise<number> {
  let ms = 0;
  for (const st of set) {
    const plan = (await client.query(`EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) ${st.sql}`, st.bindings)).rows[0]['QUERY PLAN'][0];
    ms += plan['Planning Time'] + plan['Execution Time'];
  }
  return ms;
}
