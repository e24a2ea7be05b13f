import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { waitSearchable } from '../scripts/lib/wait-searchable.js';
import { API_NODE_FLAGS, apiNodeFlagsOf, rssTree, startProcess, stopProcess } from './lib/processes.js';
import { prepareReplicated, sendPrepared } from './lib/catalog-100k.js';
import { httpLoad, type LoadResult } from './lib/http-load.js';
import { keptStore, reusedDatabase } from './lib/kept-database.js';
import { queryMix } from './lib/query-mix.js';
import { queriesFrom, TrafficMix } from './lib/traffic-mix.js';

/**
 * bench/traffic: what a store owner sees. Three stores of different sizes (BENCH_PRODUCTS, a fifth
 * and a fiftieth of it) share one API (API_PROCESSES=2, result cache on as deployed); requests
 * follow a Zipf-like choice over thousands of distinct queries (a repeated head, a long tail),
 * with brand/price/stock refinements, second pages, sorts and typos; catalog writes (20 price
 * changes every BENCH_WRITE_MS per store in turn, each dropping that store's cached results)
 * run beside it. Prints throughput, p50/p99 (all and per store) and the cache hit ratio
 * (X-Search-Cache), the load average and the API processes' memory.
 *   BENCH_REUSE=<url>       a database BENCH_KEEP=1 kept (stores found by name)
 *   BENCH_COMPARE_DIR=<dir> first the same traffic against another checkout's API (e.g. main), same run
 *   BENCH_GRACE_MS=2000     then again with SEARCH_CACHE_WRITE_GRACE_MS at that (0: not)
 *   BENCH_SOAK=1            the mixed soak instead: the 20k store only, 60 % searches, 30 % suggests,
 *                           10 % catalog writes (5 products each) in the same closed loop (BENCH_SECONDS=120)
 */
const TOTAL = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const WRITE_MS = Number(process.env.BENCH_WRITE_MS ?? 1000);
const SOAK = !!process.env.BENCH_SOAK;
const base = loadConfig();
const db = process.env.BENCH_REUSE ? reusedDatabase(process.env.BENCH_REUSE) : await freshDatabase(base.databaseUrl, 'pss_bench_traffic');
const env = {
  DATABASE_URL: db.url,
  QUEUE_PREFIX: db.prefix,
  PORT: '18292',
  LOG_LEVEL: 'warn',
  MIGRATE_ON_START: 'false',
  RATE_LIMIT_SECRET_PER_S: '1000000',
  API_PROCESSES: process.env.BENCH_API_PROCESSES ?? '2',
  SEARCH_CACHE_TTL_MS: '60000',
};
const origin = 'http://127.0.0.1:18292';
const deps = createDeps(loadConfig({ ...process.env, ...env }));
await migrateLatest(deps.db);
const worker = await startProcess('workers/main.ts', env, async () => true);
let api = await startProcess('api/main.ts', env, async () => (await fetch(`${origin}/healthz`)).ok, API_NODE_FLAGS);
try {
  const sizes = [TOTAL, Math.round(TOTAL / 5), Math.round(TOTAL / 50)];
  const stores: Array<{ name: string; size: number; tenantId: string; key: string; bodies: string[] }> = [];
  for (const size of sizes) {
    const name = size === TOTAL ? 'bench' : `traffic-${size}`;
    const bodies = await prepareReplicated(base.sharedDataDir, size);
    let made = process.env.BENCH_REUSE ? await keptStore(deps, name) : null;
    if (!made) {
      made = await createTenantWithKey(deps, { name, locales: ['en', 'ar'], defaultLocale: 'en' });
      await fetch(`${origin}/v1/attributes/mapping`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${made.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ raw_name: 'product_colour', canonical_name: 'color' }] }),
      });
      await sendPrepared({ url: origin, key: made.key, bodies, inFlight: 4, runId: `${name}-${Date.now()}`, progress: true });
      await waitSearchable(deps, made.tenant.id);
    }
    stores.push({ name, size, tenantId: made.tenant.id, key: made.key, bodies });
  }
  await deps.db.raw('VACUUM (ANALYZE) search_docs');
  // Queries from the largest store's names and brands, the judged Chorus queries as the head.
  const products = stores[0].bodies
    .flatMap((b) => JSON.parse(b).upsert as Array<{ name: Record<string, string>; brand?: string }>)
    .map((p) => ({ name: p.name.en ?? Object.values(p.name)[0] ?? '', brand: p.brand ?? null }));
  const brandCounts = new Map<string, number>();
  for (const p of products) if (p.brand) brandCounts.set(p.brand, (brandCounts.get(p.brand) ?? 0) + 1);
  const brands = [...brandCounts].sort((a, b) => b[1] - a[1]).map(([b]) => b);
  const queries = queriesFrom(products, queryMix(base.sharedDataDir).chorus);
  const lines = [
    `stores: ${stores.map((s) => `${s.name} ${s.size}`).join(', ')}; ${queries.length} distinct queries (Zipf s=1: the first 100 get ${(100 * new TrafficMix({ queries, brands }).headShare(100)).toFixed(0)} % of requests); c=${CONCURRENCY}, ${SECONDS} s; writes: 20 products every ${WRITE_MS} ms`,
  ];

  // Each phase its own API processes: another checkout's (BENCH_COMPARE_DIR), this one's as configured, and this one's with a write grace.
  const grace = process.env.BENCH_GRACE_MS ?? '2000';
  const phases: Array<{ label: string; dir: string; env?: Record<string, string> }> = [
    ...(process.env.BENCH_COMPARE_DIR ? [{ label: `before (${process.env.BENCH_COMPARE_DIR})`, dir: resolve(process.env.BENCH_COMPARE_DIR) }] : []),
    { label: 'this checkout', dir: process.cwd() },
    ...(grace !== '0'
      ? [{ label: `this checkout, SEARCH_CACHE_WRITE_GRACE_MS=${grace}`, dir: process.cwd(), env: { SEARCH_CACHE_WRITE_GRACE_MS: grace } }]
      : []),
  ];
  for (const [i, phase] of phases.entries()) {
    if (i > 0 || phase.dir !== process.cwd()) {
      await stopProcess(api);
      // The stopped API's processes may hold the port a moment longer: the next must not meet them.
      for (
        let t = 0;
        t < 100 &&
        (await fetch(`${origin}/healthz`).then(
          () => true,
          () => false,
        ));
        t++
      )
        await new Promise((r) => setTimeout(r, 100));
      api = await startProcess(
        'api/main.ts',
        { ...env, ...phase.env },
        async () => (await fetch(`${origin}/healthz`)).ok,
        apiNodeFlagsOf(phase.dir),
        phase.dir,
      );
    }
    // A running store's processes have its vocabulary and dictionary loaded and its head queries
    // cached: BENCH_WARM_S (10) of the same traffic from another seed first, not measured.
    const warmMix = new TrafficMix({ queries, brands, seed: 7 });
    const warmStore = storePicker();
    await httpLoad({ origin, concurrency: 8, durationMs: Number(process.env.BENCH_WARM_S ?? 10) * 1000, next: () => trafficRequest(warmMix, warmStore()) });
    const mix = new TrafficMix({ queries, brands, seed: 42 });
    const store = storePicker();
    const hits = { hit: 0, miss: 0 };
    const statuses = new Map<number, number>();
    const writer = writeLoop();
    const load1 = loadavg()[0];
    const soakStore = stores[1];
    let writes = 0;
    const res = await httpLoad({
      origin,
      concurrency: CONCURRENCY,
      durationMs: SECONDS * 1000,
      next: (n) => {
        if (!SOAK) return trafficRequest(mix, store());
        const kind = n % 10;
        const auth = { authorization: `Bearer ${soakStore.key}` };
        if (kind < 6) return { ...trafficRequest(mix, soakStore), group: 'search' };
        if (kind < 9) return { path: `/v1/suggest?q=${encodeURIComponent(queries[n % 500].slice(0, 2 + (n % 5)))}`, headers: auth, group: 'suggest' };
        const w = writes++;
        const batch = (JSON.parse(soakStore.bodies[w % soakStore.bodies.length]).upsert as Array<Record<string, unknown>>)
          .slice((w * 5) % 995, ((w * 5) % 995) + 5)
          .map((p) => ({ ...p, price: (Number(p.price) * (1 + 0.01 * ((w % 7) + 1))).toFixed(2) }));
        return {
          path: '/v1/products/batch',
          method: 'POST' as const,
          body: JSON.stringify({ upsert: batch }),
          headers: { ...auth, 'content-type': 'application/json' },
          group: 'write',
        };
      },
      observe: (r) => {
        statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
        const h = r.headers['x-search-cache'];
        if (h === 'hit') hits.hit++;
        else if (h === 'miss') hits.miss++;
      },
    });
    const written = await writer.stop();
    const rss = rssTree(api.pid).filter((p) => p.rss > 0);
    lines.push(`\n${phase.label}: load average ${load1.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`);
    if (SOAK) {
      lines.push(line(`soak on ${soakStore.name}, all`, res));
      for (const g of ['search', 'suggest', 'write']) lines.push(line(`  ${g}`, res.groups![g]));
    } else {
      lines.push(line('search, all stores', res));
      for (const s of stores) lines.push(line(`  ${s.name} (${s.size})`, res.groups![s.name]));
    }
    lines.push(
      `cache hit ratio ${hits.hit + hits.miss ? `${((100 * hits.hit) / (hits.hit + hits.miss)).toFixed(1)} %` : 'n/a (no X-Search-Cache header)'}${SOAK ? '' : `; writes ${written.batches} batches (${written.errors} errors, p50 ${written.p50.toFixed(0)} ms)`}`,
    );
    lines.push(`statuses: ${[...statuses].map(([code, n]) => `${code} x${n}`).join(', ')}`);
    lines.push(`API memory: ${rss.map((p) => `pid ${p.pid} rss ${p.rss.toFixed(0)} MiB (peak ${p.peak.toFixed(0)})`).join('; ')}`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n(targets: search p99 <= 50 ms at c=32 with the writes running; soak: search p99 <= 100 ms, 0 errors)\n`);

  /** Stores chosen by size: the big store half of the requests, the middle one 30 %, the small one 20 %. */
  function storePicker() {
    let n = 0;
    const order = [0, 1, 0, 2, 0, 1, 0, 1, 2, 0];
    return () => stores[order[n++ % order.length]];
  }

  function trafficRequest(mix: TrafficMix, s: (typeof stores)[number]) {
    const { query } = mix.next();
    return { path: `/v1/search?${query}`, headers: { authorization: `Bearer ${s.key}` }, group: s.name };
  }

  /** Price changes of 20 products every WRITE_MS, the stores in turn, until stopped. */
  function writeLoop() {
    let stopped = false;
    const took: number[] = [];
    let errors = 0;
    const running = (async () => {
      for (let n = 0; !stopped && !SOAK; n++) {
        const s = stores[n % stores.length];
        const batch = (JSON.parse(s.bodies[n % s.bodies.length]).upsert as Array<Record<string, unknown>>)
          .slice(0, 20)
          .map((p) => ({ ...p, price: (Number(p.price) * (1 + 0.01 * ((n % 7) + 1))).toFixed(2) }));
        const t0 = performance.now();
        const r = await fetch(`${origin}/v1/products/batch`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ upsert: batch }),
        }).catch(() => null);
        if (!r?.ok) errors++;
        await r?.arrayBuffer();
        took.push(performance.now() - t0);
        await new Promise((done) => setTimeout(done, WRITE_MS));
      }
    })();
    return {
      async stop() {
        stopped = true;
        await running;
        took.sort((a, b) => a - b);
        return { batches: took.length, errors, p50: took[Math.floor(took.length / 2)] ?? 0 };
      },
    };
  }
} finally {
  await stopProcess(api);
  await stopProcess(worker);
  await deps.close();
  // A reused database stays; its run's Redis keys go.
  if (process.env.BENCH_KEEP && !process.env.BENCH_REUSE) process.stdout.write(`kept database ${db.url}\n`);
  else await db.drop();
}

function line(label: string, r: LoadResult): string {
  return `${label.padEnd(28)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(8)} ms   errors ${r.errors}/${r.requests}`;
}
