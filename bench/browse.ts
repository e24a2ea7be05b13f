import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import type { SearchInput } from '../shared/search/index.js';

/**
 * bench/browse: searches without words (the store browsed, category pages, a price or stock
 * filter alone) on a database bench/search kept (BENCH_KEEP=1), through SearchService in one
 * process with the result and facet caches off, one search at a time. `BROWSE_COMPARE_DIR=<checkout>`
 * runs the same searches with another checkout's code (e.g. main) in turns, in the same run.
 *   npx tsx bench/browse.ts <database url> [rounds]
 */
const [url, roundsArg] = process.argv.slice(2);
if (!url) throw new Error('usage: tsx bench/browse.ts <database url> [rounds]');
const rounds = Number(roundsArg ?? 5);
const here = resolve(import.meta.dirname, '..');
const dirs = [...(process.env.BROWSE_COMPARE_DIR ? [resolve(process.env.BROWSE_COMPARE_DIR)] : []), here];

type Service = { search: (tenantId: string, input: SearchInput) => Promise<{ body: { total: number } }> };
const sides: Array<{ dir: string; search: Service; close: () => Promise<void>; db: { raw: (sql: string) => Promise<{ rows: unknown[] }> } }> = [];
for (const [i, dir] of dirs.entries()) {
  const { loadConfig } = await import(`${dir}/shared/platform/config.ts`);
  const { createDeps } = await import(`${dir}/shared/deps.ts`);
  const deps = createDeps(
    loadConfig({ ...process.env, DATABASE_URL: url, SEARCH_CACHE_TTL_MS: '0', LOG_LEVEL: 'warn', QUEUE_PREFIX: `pssbrowse${process.pid}x${i}` }),
  );
  sides.push({ dir, search: deps.search, close: () => deps.close(), db: deps.db });
}

const input = (filters: SearchInput['filters'], extra: Partial<SearchInput> = {}): SearchInput => ({
  q: '',
  lang: 'auto',
  page: 1,
  perPage: 20,
  filters,
  sort: null,
  facets: null,
  session: null,
  debug: false,
  override: null,
  log: false,
  ai: 'off',
  ...extra,
});

try {
  const db = sides[0].db as unknown as { raw: (sql: string, b?: unknown[]) => Promise<{ rows: Array<Record<string, string>> }> };
  const { rows: tenants } = await db.raw(`SELECT id FROM tenants WHERE name = 'bench' ORDER BY created_at DESC LIMIT 1`);
  const tenantId = tenants[0].id;
  // The store's category paths by size: the biggest, one of about 3,000 products, one of about 300.
  const { rows: cats } = await db.raw(
    `SELECT c, n FROM (SELECT c, count(*) AS n FROM (SELECT unnest(category_ids) AS c FROM search_docs WHERE tenant_id = ? AND visible) x WHERE c LIKE 'lvl:%' GROUP BY c) y ORDER BY n DESC`,
    [tenantId],
  );
  const near = (n: number) => cats.reduce((best, c) => (Math.abs(Number(c.n) - n) < Math.abs(Number(best.n) - n) ? c : best));
  const pick = [cats[0], near(3000), near(300)].map((c) => ({ path: c.c.slice(4), n: Number(c.n) }));
  const cases: Array<{ label: string; input: SearchInput }> = [
    { label: 'whole store', input: input({}) },
    ...pick.map((c) => ({ label: `category ${c.n} products`, input: input({ category: [c.path] }) })),
    { label: 'category, page 2, price sort', input: input({ category: [pick[0].path] }, { page: 2, sort: 'price_asc' }) },
    { label: 'price <= 100', input: input({ price: { lte: 100 } }) },
    { label: 'in stock', input: input({ in_stock: true }) },
  ];
  const times = new Map<string, number[]>();
  for (const side of sides) for (const c of cases) await side.search.search(tenantId, c.input); // warm: contexts, vocabulary, counts
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 ? [...sides].reverse() : sides) {
      for (const c of cases) {
        const t0 = performance.now();
        await side.search.search(tenantId, c.input);
        const key = `${side.dir}\t${c.label}`;
        times.set(key, [...(times.get(key) ?? []), performance.now() - t0]);
      }
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const c of cases) {
    process.stdout.write(
      `${c.label.padEnd(32)} ${sides.map((s) => `${s.dir === here ? 'this' : s.dir}: ${med(times.get(`${s.dir}\t${c.label}`)!).toFixed(1)} ms`).join('   ')}\n`,
    );
  }
  process.stdout.write(
    `(median of ${rounds}, one at a time; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')})\n`,
  );
} finally {
  for (const s of sides) await s.close();
}
