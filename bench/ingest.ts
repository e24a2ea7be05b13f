import { join } from 'node:path';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { waitSearchable } from '../scripts/lib/wait-searchable.js';
import { loadCatalog } from '../scripts/lib/load-catalog.js';
import { API_NODE_FLAGS, peakRssMiB, startProcess, stopProcess } from './lib/processes.js';
import { prepareReplicated, sendPrepared } from './lib/catalog-100k.js';
import { vectorLag } from '../shared/vectors/index.js';

/**
 * bench/ingest: 100k products (both real catalogs, replicated) through the batch API at 1,000
 * per call with a few calls in flight, until all are searchable (request bodies are prepared
 * before the clock starts, as a load generator's are); then single-batch time to
 * visible on an idle system (after the vectors are complete), a re-send of the same 100k, and peak RSS of the API and worker processes.
 */
const TOTAL = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const base = loadConfig();
const db = await freshDatabase(base.databaseUrl, 'pss_bench_ingest');
const env = {
  DATABASE_URL: db.url,
  QUEUE_PREFIX: db.prefix,
  PORT: '18181',
  LOG_LEVEL: 'warn',
  MIGRATE_ON_START: 'false',
  WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? 'catalog=2',
};
const config = loadConfig({ ...process.env, ...env });
const deps = createDeps(config);
await migrateLatest(deps.db);
const url = 'http://127.0.0.1:18181';
const api = await startProcess('api/main.ts', env, async () => (await fetch(`${url}/healthz`)).ok, API_NODE_FLAGS);
// Worker processes (an operator's pool size); one JS thread each, so two use both cores once the API is idle.
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const workers = await Promise.all(Array.from({ length: WORKERS }, () => startProcess('workers/main.ts', env, async () => true)));
try {
  const { tenant, key } = await createTenantWithKey(deps, { name: 'bench', locales: ['en', 'ar'], defaultLocale: 'en' });
  const bodies = await prepareReplicated(base.sharedDataDir, TOTAL);
  const t0 = Date.now();
  const first = await sendPrepared({ url, key, bodies, inFlight: 4, runId: 'first', progress: true });
  const sentAt = Date.now();
  await waitSearchable(deps, tenant.id, 600_000, false);
  const searchableAt = Date.now();
  const stored = await deps.repos.products.count(tenant.id);
  // Embedding runs after lexical indexing (the catalog embedder trains on the store's text first); visibility does not wait for it.
  let lag = await vectorLag(deps.db, deps.vectors, tenant.id);
  for (const until = Date.now() + 1_800_000; lag.pending > 0 && Date.now() < until; lag = await vectorLag(deps.db, deps.vectors, tenant.id)) {
    process.stderr.write(`\rvectors: ${stored - lag.pending}/${stored}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
  const vectorsAt = Date.now();

  const visible: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = Date.now();
    await loadCatalog({
      url,
      key,
      file: join(base.sharedDataDir, 'flipkart-products', 'products.jsonl.gz'),
      kind: 'flipkart',
      limit: 1000,
      inFlight: 1,
      runId: `vis${i}`,
      transform: (p) => ({ ...p, id: `vis${i}-${String(p.id)}`, name: { en: `visprobe${i} ${(p.name as { en: string }).en}` } }),
    });
    for (;;) {
      const r = await deps.engine.search({ tenantId: tenant.id, tokens: [`visprobe${i}`], offset: 0, limit: 0 });
      if (r.total >= 990) break;
      await new Promise((res) => setTimeout(res, 10));
    }
    visible.push(Date.now() - started);
  }
  visible.sort((a, b) => a - b);

  const r0 = Date.now();
  const again = await sendPrepared({ url, key, bodies, inFlight: 4, runId: 'again' });
  const resendSeconds = (Date.now() - r0) / 1000;

  const out = [
    `worker processes: ${WORKERS} (${env.WORKER_CONCURRENCY})`,
    `products sent: ${first.sent} (stored ${stored}, rejected ${first.errors.length})`,
    `send: ${((sentAt - t0) / 1000).toFixed(1)} s   all searchable after ${((searchableAt - t0) / 1000).toFixed(1)} s`,
    `throughput to searchable: ${(first.sent / ((searchableAt - t0) / 1000)).toFixed(0)} products/s   (target >= 5,000)`,
    `vectors (${config.vectors.embedder} embedder): ${lag.pending ? `${lag.pending} still pending after` : 'complete after'} ${((vectorsAt - t0) / 1000).toFixed(1)} s (${((vectorsAt - searchableAt) / 1000).toFixed(1)} s after searchable)`,
    `single 1,000-item batch to visible (idle, 20 runs): p50 ${visible[9]} ms   p99 ${visible[19]} ms   (target p99 <= 2,000 ms)`,
    `re-send of the same ${again.sent} (unchanged ${again.unchanged}): ${(again.sent / resendSeconds).toFixed(0)} products/s`,
    `peak RSS: api ${peakRssMiB(api.pid).toFixed(0)} MiB   workers ${workers.map((w) => `${peakRssMiB(w.pid).toFixed(0)} MiB`).join(', ')}`,
  ];
  process.stdout.write(`\n${out.join('\n')}\n`);
} finally {
  await stopProcess(api);
  await Promise.all(workers.map(stopProcess));
  await deps.close();
  await db.drop();
}
