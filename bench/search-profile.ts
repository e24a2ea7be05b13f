import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { queryMix, toInput } from './lib/query-mix.js';

/**
 * bench/search-profile: where an uncached search spends its time, on a database bench/search
 * kept (BENCH_KEEP=1). The query mix runs through SearchService in this process (cache off),
 * one at a time, with the debug trace; prints each step's share, the engine statements per
 * search, and EXPLAIN (ANALYZE, BUFFERS) of the slowest query's statements. With
 * `node --cpu-prof --import tsx bench/search-profile.ts` the CPU profile covers the same run.
 *   npx tsx bench/search-profile.ts <database url> [rounds]
 */
const [url, roundsArg] = process.argv.slice(2);
if (!url) throw new Error('usage: tsx bench/search-profile.ts <database url> [rounds]');
const rounds = Number(roundsArg ?? 3);
const base = loadConfig();
const deps = createDeps(
  loadConfig({ ...process.env, DATABASE_URL: url, SEARCH_CACHE_TTL_MS: '0', LOG_LEVEL: 'warn', QUEUE_PREFIX: `pssprofile${process.pid}` }),
);
const statements: Array<{ sql: string; bindings: unknown[] }> = [];
deps.db.on('query', (q: { sql: string; bindings: unknown[] }) => statements.push({ sql: q.sql, bindings: q.bindings }));

try {
  const tenant = await deps.db('tenants').where({ name: 'bench' }).orderBy('created_at', 'desc').first();
  const { mix } = queryMix(base.sharedDataDir);
  const inputs = mix.map(toInput);
  for (const input of inputs) await deps.search.search(tenant.id, input); // warm: contexts, vocabulary, plans
  const steps = new Map<string, number[]>();
  const totals: Array<{ q: string; ms: number; statements: number }> = [];
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const input of inputs) {
      statements.length = 0;
      const s = performance.now();
      const { body } = await deps.search.search(tenant.id, input);
      const ms = performance.now() - s;
      totals.push({ q: input.q + (Object.keys(input.filters).length ? ' +filters' : ''), ms, statements: statements.length });
      for (const st of (body.debug?.steps ?? []) as Array<{ step: string; ms: number }>) steps.set(st.step, [...(steps.get(st.step) ?? []), st.ms]);
      steps.set('(outside steps)', [...(steps.get('(outside steps)') ?? []), ms - (body.debug?.steps as Array<{ ms: number }>).reduce((a, b) => a + b.ms, 0)]);
    }
  }
  const wall = performance.now() - t0;
  const n = totals.length;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  const all = totals.map((t) => t.ms);
  process.stdout.write(
    `${n} uncached searches one at a time: ${(n / (wall / 1000)).toFixed(0)}/s, mean ${(sum(all) / n).toFixed(2)} ms, p50 ${pct(all, 0.5).toFixed(2)}, p99 ${pct(all, 0.99).toFixed(2)}; engine statements per search ${(sum(totals.map((t) => t.statements)) / n).toFixed(2)}\n`,
  );
  process.stdout.write('step                      mean ms   share    p99 ms\n');
  for (const [name, xs] of [...steps].sort((a, b) => sum(b[1]) - sum(a[1]))) {
    process.stdout.write(
      `${name.padEnd(24)} ${(sum(xs) / n).toFixed(3).padStart(8)} ${((100 * sum(xs)) / sum(all)).toFixed(1).padStart(6)} % ${pct(xs, 0.99).toFixed(2).padStart(8)}\n`,
    );
  }
  const slow: Map<string, number> = new Map<string, number>();
  for (const t of totals) slow.set(t.q, (slow.get(t.q) ?? 0) + t.ms / rounds);
  process.stdout.write(
    `slowest: ${[...slow]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([q, ms]) => `${q} ${ms.toFixed(1)} ms`)
      .join('; ')}\n`,
  );
  for (const q of (process.env.PROFILE_EXPLAIN ?? 'usb cable,laptp').split(',')) {
    statements.length = 0;
    await deps.search.search(tenant.id, { ...toInput(encodeURIComponent(q)), debug: false });
    for (const st of statements.filter((x) => /search_docs/.test(x.sql))) {
      const conn = await deps.db.client.acquireConnection();
      const { rows } = await conn.query(`EXPLAIN (ANALYZE, BUFFERS) ${st.sql}`, st.bindings).finally(() => deps.db.client.releaseConnection(conn));
      process.stdout.write(`\nEXPLAIN (ANALYZE, BUFFERS) "${q}":\n${rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')}\n`);
    }
  }
} finally {
  await deps.close();
}
