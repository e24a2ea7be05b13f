import Koa from 'koa';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { normalizeText, tokenize } from '../shared/text/normalize.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { waitSearchable } from '../scripts/lib/wait-searchable.js';
import { queryMix } from './lib/query-mix.js';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { API_NODE_FLAGS, apiNodeFlagsOf, rssTree, startProcess, stopProcess } from './lib/processes.js';
import { prepareReplicated, sendPrepared } from './lib/catalog-100k.js';
import { formatLoad, httpLoad, type LoadResult } from './lib/http-load.js';
import { loadGenerator } from './lib/wrk-load.js';
import { merchComparison } from './lib/merch-compare.js';
import { meteringComparison } from './lib/metering-compare.js';
import { copyKeyTo, keptStore, reusedDatabase } from './lib/kept-database.js';
import { clearRedisPrefix } from '../scripts/lib/fresh-database.js';
import { recordSearches, replayLoad, type SearchedWords } from './lib/statement-floor.js';
import { cpuSplit } from './lib/cpu-split.js';

/**
 * bench/search: 100k products, a query mix (Chorus queries, typo variants, Arabic queries,
 * filters and facets), keep-alive HTTP load at concurrency 8 and 32 against a separate API
 * process; in the same run the floors: a plain engine query alone, the service's own statements
 * replayed straight to Postgres, and a Koa hello-world.
 */
const TOTAL = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const base = loadConfig();
// BENCH_REUSE=<database url>: a database a BENCH_KEEP=1 run kept (its stores are found by name, not loaded again).
const db = process.env.BENCH_REUSE ? reusedDatabase(process.env.BENCH_REUSE) : await freshDatabase(base.databaseUrl, 'pss_bench_search');
// Each API runs as API_PROCESSES processes, one per core as README advises (BENCH_API_PROCESSES, default 2).
const env = {
  DATABASE_URL: db.url,
  QUEUE_PREFIX: db.prefix,
  PORT: '18282',
  LOG_LEVEL: 'warn',
  MIGRATE_ON_START: 'false',
  VOCAB_DEBOUNCE_MS: '2000',
  RATE_LIMIT_SECRET_PER_S: '1000000',
  API_PROCESSES: process.env.BENCH_API_PROCESSES ?? '2',
  // Stores without a subscription are not capped by the free plan here; BENCH_METERING gives its store a paid plan.
  BILLING_DEFAULT_PLAN: 'enterprise',
};
const deps = createDeps(loadConfig({ ...process.env, ...env }));
await migrateLatest(deps.db);
const origin = 'http://127.0.0.1:18282';
// "Cache warm" runs measure answers from the cache: entries outlive the bench (at the default 60 s
// they would all age out together mid-run and refresh in the background, a load real traffic
// spreads over time).
const api = await startProcess('api/main.ts', { ...env, SEARCH_CACHE_TTL_MS: '600000' }, async () => (await fetch(`${origin}/healthz`)).ok, API_NODE_FLAGS);
// A second API process with the result cache off, to measure the whole pipeline on every request.
// It also takes the catalog load, as a deployment's catalog-write pool would: a process that has
// just parsed 100k products answers reads slower for a long while (suggest p99 at c=32 20-25 ms
// against 7.8 ms), so storefront traffic gets processes of its own (README, "Running it").
const nocache = 'http://127.0.0.1:18284';
const api2 = await startProcess(
  'api/main.ts',
  { ...env, PORT: '18284', SEARCH_CACHE_TTL_MS: '0' },
  async () => (await fetch(`${nocache}/healthz`)).ok,
  API_NODE_FLAGS,
);
// BENCH_COMPARE_DIR=<checkout>: the same two APIs from another checkout's code (e.g. main) on the same database, measured in the same run.
const compareDir = process.env.BENCH_COMPARE_DIR ? resolve(process.env.BENCH_COMPARE_DIR) : null;
// BENCH_COMPARE_DB=<database url>: the other checkout's APIs read this database instead, for a change of schema: a copy of
// the kept one made before migrating it (CREATE DATABASE ... TEMPLATE), so the same stores under the old schema.
// The bench's key is copied there; its Redis keys have a prefix of their own.
const compareEnv = process.env.BENCH_COMPARE_DB ? { DATABASE_URL: process.env.BENCH_COMPARE_DB, QUEUE_PREFIX: `${db.prefix}b` } : {};
const before = compareDir ? { origin: 'http://127.0.0.1:18285', nocache: 'http://127.0.0.1:18286' } : null;
const beforeApis = before
  ? [
      await startProcess(
        'api/main.ts',
        { ...env, ...compareEnv, PORT: '18285', SEARCH_CACHE_TTL_MS: '600000' },
        async () => (await fetch(`${before.origin}/healthz`)).ok,
        apiNodeFlagsOf(compareDir!),
        compareDir!,
      ),
      await startProcess(
        'api/main.ts',
        { ...env, ...compareEnv, PORT: '18286', SEARCH_CACHE_TTL_MS: '0' },
        async () => (await fetch(`${before.nocache}/healthz`)).ok,
        apiNodeFlagsOf(compareDir!),
        compareDir!,
      ),
    ]
  : [];
const worker = await startProcess('workers/main.ts', env, async () => true);
// BENCH_METERING=1: a third API process, cache warm like the first, with usage metering and quota checks off.
const unmetered = 'http://127.0.0.1:18285';
const api3 = process.env.BENCH_METERING
  ? await startProcess(
      'api/main.ts',
      { ...env, PORT: '18285', SEARCH_CACHE_TTL_MS: '600000', USAGE_METERING: 'off' },
      async () => (await fetch(`${unmetered}/healthz`)).ok,
      API_NODE_FLAGS,
    )
  : null;
const hello = new Koa()
  .use((ctx) => {
    ctx.body = { ok: true };
  })
  .listen(18283, '127.0.0.1');
try {
  const bodies = await prepareReplicated(base.sharedDataDir, TOTAL);
  const loadStore = async (name: string) => {
    const kept = process.env.BENCH_REUSE ? await keptStore(deps, name) : null;
    if (kept) return kept;
    const made = await createTenantWithKey(deps, { name, locales: ['en', 'ar'], defaultLocale: 'en' });
    await fetch(`${origin}/v1/attributes/mapping`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${made.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ raw_name: 'product_colour', canonical_name: 'color' }] }),
    });
    await sendPrepared({ url: nocache, key: made.key, bodies, inFlight: 4, runId: name, progress: true });
    await waitSearchable(deps, made.tenant.id);
    return made;
  };
  const { tenant, key } = await loadStore('bench');
  if (process.env.BENCH_COMPARE_DB) await copyKeyTo(deps, tenant.id, process.env.BENCH_COMPARE_DB);
  // BENCH_MERCH=1: a second store with the same catalog carries the rules and the experiment.
  const twin = process.env.BENCH_MERCH ? await loadStore('bench-merch') : null;
  await stopProcess(worker);
  // What autovacuum and the checkpointer do in the minutes after a bulk load (here autovacuum is
  // off): row estimates, hint bits and the visibility map, dirty pages written out. Without it the
  // runs measure the load's aftermath (suggest p99 at c=32 of 21-25 ms instead of about 10).
  await deps.db.raw('VACUUM (ANALYZE)');
  await deps.db.raw('CHECKPOINT');

  const { mix, prefixes } = queryMix(base.sharedDataDir);
  const auth = { authorization: `Bearer ${key}` };
  const lines: string[] = [
    `catalog: ${await deps.repos.products.count(tenant.id)} products; query mix ${mix.length}; ${SECONDS} s per run; API_PROCESSES=${env.API_PROCESSES}; load generator ${loadGenerator()}`,
  ];
  // Warm in every API process: each holds its own result cache, and a first answer takes the
  // whole pipeline (40-250 ms), enough to set the p99 of a 10 s run.
  const sides = [
    ...(before ? [{ label: 'before: ', ...before, nocacheProcess: beforeApis[1] }] : []),
    { label: before ? 'after: ' : '', origin, nocache, nocacheProcess: api2 },
  ];
  let warm = { requests: 0 };
  for (const side of sides) {
    warm = await httpLoad({
      origin: side.origin,
      concurrency: 8,
      durationMs: 8000,
      next: (i) => ({ path: `/v1/search?q=${mix[i % mix.length]}`, headers: auth }),
    });
    await httpLoad({
      origin: side.origin,
      concurrency: 8,
      durationMs: 2000,
      next: (i) => ({ path: `/v1/suggest?q=${prefixes[i % prefixes.length]}`, headers: auth }),
    });
    // The uncached process loads the store's vocabulary and dictionary on its first searches.
    await httpLoad({ origin: side.nocache, concurrency: 8, durationMs: 3000, next: (i) => ({ path: `/v1/search?q=${mix[i % mix.length]}`, headers: auth }) });
  }
  lines.push(`(warm-up: ${warm.requests} searches, then 2 s of suggest, not measured)`);
  // BENCH_MERCH=1: only the comparison without and with 200 rules and a running experiment (bench/lib/merch-compare.ts).
  if (twin)
    lines.push(
      ...(await merchComparison({
        deps,
        plain: { tenantId: tenant.id, key },
        merch: { tenantId: twin.tenant.id, key: twin.key },
        origin,
        nocache,
        mix,
        seconds: SECONDS,
      })),
    );
  if (process.env.BENCH_METERING) {
    // A paid plan (searches_limit and overage), as most metered stores have.
    const now = new Date();
    await deps.db('billing_subscriptions').insert({
      tenant_id: tenant.id,
      plan_code: 'scale',
      interval: 'month',
      status: 'active',
      provider: 'manual',
      current_period_start: now,
      current_period_end: new Date(now.getTime() + 30 * 86400_000),
    });
    await deps.notices.publish('subscription', tenant.id);
    lines.push(...(await meteringComparison({ on: origin, off: unmetered, key, mix, seconds: SECONDS })));
    // The same work in this process, no HTTP: what the check and the count cost per search.
    const n = 200_000;
    await deps.meter.admit(tenant.id, 1);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      await deps.meter.admit(tenant.id, 1);
      await deps.meter.record(tenant.id, 1);
    }
    lines.push(`metering in process: ${(((performance.now() - t0) * 1000) / n).toFixed(2)} us per billed search (quota check + count + header)`);
  }
  // The floor under "no cache": the statements the service itself sends per search, replayed straight to Postgres.
  const { statements: recorded, words: searched } =
    twin || process.env.BENCH_METERING ? { statements: [], words: [] } : await recordSearches(env, tenant.id, mix);
  for (const c of twin || process.env.BENCH_METERING ? [] : [8, 32]) {
    const ms = SECONDS * 1000;
    lines.push(
      formatLoad(`koa hello-world c=${c}`, await httpLoad({ origin: 'http://127.0.0.1:18283', concurrency: c, durationMs: ms, next: () => ({ path: '/' }) })),
    );
    const asTyped = mix.map((m) => {
      const tokens = tokenize(normalizeText(decodeURIComponent(m.split('&')[0])));
      return { tokens, prefixLast: true };
    });
    // As typed, a misspelt query's words match nothing (about a third of the mix), so this floor is partly empty
    // searches; on the words the service searched (typos corrected) it is the same plain query over the matches the
    // service ranks. Neither has the service's ranking, its any-word fallback or its filters.
    for (const [label, words] of [
      [`engine query alone c=${c}`, asTyped],
      [`engine query, searched words c=${c}`, searched],
    ] as const) {
      const engineOnly = await engineLoad(c, ms, words);
      lines.push(
        `${label.padEnd(34)} ${engineOnly.rps.toFixed(0).padStart(7)} q/s     p50 ${engineOnly.p50.toFixed(2).padStart(7)} ms   p99 ${engineOnly.p99.toFixed(2).padStart(7)} ms`,
      );
    }
    const replayed = await replayLoad(db.url, recorded, c, ms);
    lines.push(
      `${`service statements alone c=${c}`.padEnd(34)} ${replayed.rps.toFixed(0).padStart(7)} q/s     p50 ${replayed.p50.toFixed(2).padStart(7)} ms   p99 ${replayed.p99.toFixed(2).padStart(7)} ms   (${replayed.statements.toFixed(2)} statements per search)`,
    );
    // With a baseline, each figure is the median of BENCH_ROUNDS short runs taken in turns (before, after, after, before, ...):
    // on a shared machine the load moves within seconds, and turns expose both sides to the same moves.
    const rounds = before ? Number(process.env.BENCH_ROUNDS ?? 3) : 1;
    const runs = new Map<string, LoadResult[]>();
    const cpu = new Map<string, Array<{ postgres: number; api: number }>>();
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 ? [...sides].reverse() : sides) {
        const l = side.label;
        const keep = (label: string, res: LoadResult) => runs.set(label, [...(runs.get(label) ?? []), res]);
        keep(
          `${l}search c=${c} (cache warm)`,
          await httpLoad({
            origin: side.origin,
            concurrency: c,
            durationMs: ms / rounds,
            next: (i) => ({ path: `/v1/search?q=${mix[i % mix.length]}`, headers: auth }),
          }),
        );
        // The CPU an uncached search costs, split between the API's processes and Postgres.
        const split = await cpuSplit(
          rssTree(side.nocacheProcess.pid).map((x) => x.pid),
          () =>
            httpLoad({
              origin: side.nocache,
              concurrency: c,
              durationMs: ms / rounds,
              next: (i) => ({ path: `/v1/search?q=${mix[i % mix.length]}`, headers: auth }),
            }),
        );
        keep(`${l}search c=${c} (no cache)`, split.result);
        cpu.set(`${l}c=${c}`, [
          ...(cpu.get(`${l}c=${c}`) ?? []),
          { postgres: split.postgresMs / split.result.requests, api: split.apiMs / split.result.requests },
        ]);
        keep(
          `${l}suggest c=${c}`,
          await httpLoad({
            origin: side.origin,
            concurrency: c,
            durationMs: ms / rounds,
            next: (i) => ({ path: `/v1/suggest?q=${prefixes[i % prefixes.length]}`, headers: auth }),
          }),
        );
      }
    }
    const kind = (label: string) => label.replace(/^\w+: /, '');
    // Each figure's before beside its after.
    for (const [label, list] of [...runs].sort(([a], [b]) => (kind(a) < kind(b) ? -1 : kind(a) > kind(b) ? 1 : a < b ? 1 : -1)))
      lines.push(formatLoad(label, medianOf(list)));
    for (const [label, list] of cpu) {
      const pgMs = median(list.map((x) => x.postgres));
      const apiMs = median(list.map((x) => x.api));
      lines.push(
        `${`CPU per uncached search ${label}`.padEnd(34)} Postgres ${pgMs.toFixed(2)} ms, API ${apiMs.toFixed(2)} ms (${((100 * pgMs) / (pgMs + apiMs)).toFixed(0)} % in Postgres)`,
      );
    }
    lines.push(
      `(load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')})`,
    );
  }
  for (const [label, p] of [
    ...(before
      ? ([
          ['before', beforeApis[0]],
          ['before (no cache)', beforeApis[1]],
        ] as const)
      : []),
    ['after', api],
    ['after (no cache)', api2],
  ] as const) {
    lines.push(
      `API memory ${label}: ${rssTree(p.pid)
        .map((x) => `rss ${x.rss.toFixed(0)} MiB (peak ${x.peak.toFixed(0)})`)
        .join(', ')}`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n(targets: search p50 <= 8 ms and p99 <= 30 ms at c=32, suggest p99 <= 10 ms, >= 1,000 searches/s)\n`);

  function median(xs: number[]): number {
    return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  }

  /** Median throughput, p50 and p99 of several runs; requests and errors summed. */
  function medianOf(list: LoadResult[]): LoadResult {
    return {
      requests: list.reduce((a, r) => a + r.requests, 0),
      errors: list.reduce((a, r) => a + r.errors, 0),
      rps: median(list.map((r) => r.rps)),
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
    };
  }

  /**
   * A plain engine query straight from this process (the words given, all of them, and the default
   * facets; none of the service's ranking boosts or its fallback): no HTTP, no pipeline. The
   * service's own statements are the "service statements alone" floor (bench/lib/statement-floor.ts).
   */
  async function engineLoad(concurrency: number, durationMs: number, queries: readonly SearchedWords[]) {
    const latencies: number[] = [];
    let i = 0;
    const end = Date.now() + durationMs;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < end) {
          const q = queries[i++ % queries.length];
          const s = performance.now();
          await deps.engine.search({
            tenantId: tenant.id,
            tokens: q.tokens,
            terms: q.terms,
            prefixLast: q.prefixLast,
            offset: 0,
            limit: 20,
            facets: ['brand', 'category_tree', 'price', 'in_stock'],
          });
          latencies.push(performance.now() - s);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    return {
      rps: latencies.length / ((performance.now() - t0) / 1000),
      p50: latencies[Math.floor(latencies.length / 2)],
      p99: latencies[Math.floor(latencies.length * 0.99)],
    };
  }
} finally {
  hello.close();
  for (const p of beforeApis) await stopProcess(p);
  await stopProcess(api);
  await stopProcess(api2);
  if (api3) await stopProcess(api3);
  await stopProcess(worker);
  await deps.close();
  // A reused database stays; its run's Redis keys go.
  if (process.env.BENCH_KEEP && !process.env.BENCH_REUSE) process.stdout.write(`kept database ${db.url} (BENCH_REUSE=${db.url})\n`);
  else await db.drop();
  if (process.env.BENCH_COMPARE_DB) await clearRedisPrefix(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', `${db.prefix}b`);
}
