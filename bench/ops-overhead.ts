import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { waitSearchable } from '../scripts/lib/wait-searchable.js';
import { parseJudgments } from '../scripts/eval/metrics.js';
import { API_NODE_FLAGS, startProcess, stopProcess } from './lib/processes.js';
import { prepareReplicated, sendPrepared } from './lib/catalog-100k.js';
import { formatLoad, httpLoad } from './lib/http-load.js';
import { middlewareCostMicros } from './lib/middleware-cost.js';

/**
 * bench/search's load (cached search, uncached search, suggest at c=32) against API processes
 * of two trees on one database, in the same run: the baseline (BENCH_BASELINE_DIR, a checkout
 * of the commit before the logging and metrics change) and this tree, alternating, twice.
 * Both log at LOG_LEVEL=info, the production default.
 */
const BASELINE = process.env.BENCH_BASELINE_DIR;
if (!BASELINE) throw new Error('set BENCH_BASELINE_DIR to a checkout of the baseline commit (git worktree add --detach DIR <commit>; link node_modules)');
const cost = await middlewareCostMicros();
const TOTAL = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const base = loadConfig();
const db = await freshDatabase(base.databaseUrl, 'pss_bench_ops');
const env = {
  DATABASE_URL: db.url,
  QUEUE_PREFIX: db.prefix,
  LOG_LEVEL: 'info',
  MIGRATE_ON_START: 'false',
  VOCAB_DEBOUNCE_MS: '1000',
  RATE_LIMIT_SECRET_PER_S: '1000000',
  API_PROCESSES: '1',
};
const deps = createDeps(loadConfig({ ...process.env, ...env }));
await migrateLatest(deps.db);
const children: ChildProcess[] = [];
const api = async (tree: string, port: number, ttl: string) => {
  const origin = `http://127.0.0.1:${port}`;
  children.push(
    await startProcess(
      join(tree, 'api/main.ts'),
      { ...env, PORT: String(port), SEARCH_CACHE_TTL_MS: ttl },
      async () => (await fetch(`${origin}/healthz`)).ok,
      API_NODE_FLAGS,
    ),
  );
  return origin;
};
try {
  const loader = await api(resolve('.'), 18290, '0');
  children.push(await startProcess('workers/main.ts', env, async () => true));
  const made = await createTenantWithKey(deps, { name: 'bench', locales: ['en', 'ar'], defaultLocale: 'en' });
  await sendPrepared({ url: loader, key: made.key, bodies: await prepareReplicated(base.sharedDataDir, TOTAL), inFlight: 4, runId: 'ops' });
  await waitSearchable(deps, made.tenant.id);
  // Workers and the loading API stop: only the measured processes run from here on.
  await stopProcess(children.pop()!);
  await stopProcess(children.pop()!);
  await deps.db.raw('VACUUM (ANALYZE)');

  const trees = { before: resolve(BASELINE), after: resolve('.') };
  const chorus = [...parseJudgments(readFileSync(join(base.sharedDataDir, 'chorus-icecat', 'judgments-dev.csv'), 'utf8')).keys()];
  const mix = chorus.map(encodeURIComponent);
  const prefixes = chorus.flatMap((q) => [q.slice(0, 2), q.slice(0, 4), q]).map(encodeURIComponent);
  const auth = { authorization: `Bearer ${made.key}` };
  const lines = [
    `added per request, CPU in process: ${cost.scoped.toFixed(2)} µs (log scope + request metrics), ${cost.search.toFixed(2)} µs on search routes (+ engine timing scope)`,
    `catalog ${TOTAL} products; ${SECONDS} s per run; c=32; one API process per variant, two at a time (a shared Postgres has few connections to spare); before = ${BASELINE}`,
  ];
  const ms = SECONDS * 1000;
  const search = (i: number) => ({ path: `/v1/search?q=${mix[i % mix.length]}`, headers: auth });
  const suggest = (i: number) => ({ path: `/v1/suggest?q=${prefixes[i % prefixes.length]}`, headers: auth });
  // Alternating rounds: whatever else the machine does lands on both variants alike.
  let port = 18291;
  for (const round of [1, 2]) {
    for (const v of ['before', 'after'] as const) {
      // New ports each time: a process still shutting down must not answer for its successor.
      const cached = await api(trees[v], port++, '600000');
      const nocache = await api(trees[v], port++, '0');
      await httpLoad({ origin: cached, concurrency: 8, durationMs: 3000, next: search });
      await httpLoad({ origin: cached, concurrency: 8, durationMs: 1000, next: suggest });
      await httpLoad({ origin: nocache, concurrency: 8, durationMs: 1000, next: search });
      lines.push(formatLoad(`${v} search (cache warm) r${round}`, await httpLoad({ origin: cached, concurrency: 32, durationMs: ms, next: search })));
      lines.push(formatLoad(`${v} search (no cache) r${round}`, await httpLoad({ origin: nocache, concurrency: 32, durationMs: ms, next: search })));
      lines.push(formatLoad(`${v} suggest r${round}`, await httpLoad({ origin: cached, concurrency: 32, durationMs: ms, next: suggest })));
      await stopProcess(children.pop()!);
      await stopProcess(children.pop()!);
    }
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
} finally {
  for (const c of children) await stopProcess(c);
  await deps.close();
  await db.drop();
}
