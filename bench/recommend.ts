import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { waitSearchable } from '../scripts/lib/wait-searchable.js';
import { parseJudgments } from '../scripts/eval/metrics.js';
import { vectorLag } from '../shared/vectors/index.js';
import { learnEvents } from '../pipelines/vectors/learn-events.stage.js';
import { API_NODE_FLAGS, startProcess, stopProcess } from './lib/processes.js';
import { prepareReplicated, sendPrepared } from './lib/catalog-100k.js';
import { formatLoad, httpLoad } from './lib/http-load.js';
import { loadGenerator } from './lib/wrk-load.js';

/**
 * bench/recommend: BENCH_PRODUCTS (default 20,000) products of the real catalogs, embedded by the
 * catalog embedder, 20,000 synthetic view events; keep-alive HTTP load at c=8 and c=32 on every
 * recommendation type (random products and sessions, so mostly answers not yet cached), then
 * search with hybrid off and on (result cache off, and warm) on the Chorus dev queries, same run.
 * BENCH_ROUNDS (1): rounds of the recommendation loads in turns, with the median p99 of each; BENCH_HYBRID=0 skips the searches.
 */
const TOTAL = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const base = loadConfig();
const db = await freshDatabase(base.databaseUrl, 'pss_bench_rec');
const env = {
  DATABASE_URL: db.url,
  QUEUE_PREFIX: db.prefix,
  PORT: '18382',
  LOG_LEVEL: 'warn',
  MIGRATE_ON_START: 'false',
  VOCAB_DEBOUNCE_MS: '2000',
  RATE_LIMIT_SECRET_PER_S: '1000000',
  API_PROCESSES: process.env.BENCH_API_PROCESSES ?? '2',
};
const deps = createDeps(loadConfig({ ...process.env, ...env }));
await migrateLatest(deps.db);
const origin = 'http://127.0.0.1:18382';
const nocache = 'http://127.0.0.1:18384';
const api = await startProcess('api/main.ts', { ...env, SEARCH_CACHE_TTL_MS: '600000' }, async () => (await fetch(`${origin}/healthz`)).ok, API_NODE_FLAGS);
const api2 = await startProcess(
  'api/main.ts',
  { ...env, PORT: '18384', SEARCH_CACHE_TTL_MS: '0' },
  async () => (await fetch(`${nocache}/healthz`)).ok,
  API_NODE_FLAGS,
);
const worker = await startProcess('workers/main.ts', env, async () => true);
try {
  const bodies = await prepareReplicated(base.sharedDataDir, TOTAL);
  const ids = bodies.flatMap((b) => (JSON.parse(b).upsert as Array<{ id: string }>).map((p) => p.id));
  const { tenant, key } = await createTenantWithKey(deps, { name: 'bench', locales: ['en'], defaultLocale: 'en' });
  const started = Date.now();
  await sendPrepared({ url: nocache, key, bodies, inFlight: 4, runId: 'rec', progress: true });
  await waitSearchable(deps, tenant.id, 600_000, false);
  const searchable = (Date.now() - started) / 1000;
  while ((await vectorLag(deps.db, deps.vectors, tenant.id)).pending > 0) await new Promise((r) => setTimeout(r, 500));
  const vectors = (Date.now() - started) / 1000;
  // Sessions of 2-6 views among neighbouring products, over the last day.
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const rows = [];
  for (let s = 0; s < 5000; s++) {
    const start = Math.floor(rnd() * ids.length);
    for (let v = 0; v < 2 + Math.floor(rnd() * 5); v++) {
      rows.push({
        id: `evt_b${s}_${v}`,
        tenant_id: tenant.id,
        client_event_id: null,
        type: 'view' as const,
        session: `bench-${s}`,
        search_id: null,
        product_id: ids[(start + Math.floor(rnd() * 20)) % ids.length],
        position: null,
        quantity: null,
        value: null,
        currency: null,
        occurred_at: new Date(Date.now() - rnd() * 86_400_000).toISOString(),
      });
    }
  }
  for (let i = 0; i < rows.length; i += 2000) await deps.repos.events.insertMany(rows.slice(i, i + 2000));
  await deps.recentViews.record(rows);
  // The job's own time (BullMQ processedOn to finishedOn), not its wait in the embeddings queue behind embed jobs.
  const learn = async (bucket: number) => {
    const id = await deps.queues.enqueue(learnEvents, { tenantId: tenant.id, bucket });
    for (;;) {
      const job = await deps.queues.get('embeddings').getJob(id);
      if (job?.finishedOn)
        return { seconds: (job.finishedOn - (job.processedOn ?? job.finishedOn)) / 1000, result: job.returnvalue as { similarReused?: boolean } };
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const first = await learn(1);
  // The schedule's next run over the same vectors: the similar lists are kept (their fingerprint is unchanged).
  const again = await learn(2);
  const lines = [
    `catalog: ${ids.length} products; lexically searchable in ${searchable.toFixed(1)} s (${(ids.length / searchable).toFixed(0)} products/s), vectors complete in ${vectors.toFixed(1)} s; ${rows.length} view events learned in ${first.seconds.toFixed(1)} s, again with the vectors unchanged in ${again.seconds.toFixed(1)} s (lists ${again.result.similarReused ? 'kept' : 'computed again'}); ${SECONDS} s per run; API_PROCESSES=${env.API_PROCESSES}; load generator ${loadGenerator()}`,
  ];
  const auth = { authorization: `Bearer ${key}` };
  const types = ['similar', 'also_viewed', 'trending', 'recently_viewed'];
  const path = (t: string, i: number) =>
    `/v1/recommend?type=${t}&limit=10&product_id=${encodeURIComponent(ids[(i * 7919) % ids.length])}&session=bench-${(i * 31) % 5000}`;
  await httpLoad({ origin, concurrency: 8, durationMs: 3000, next: (i) => ({ path: path(types[i % 4], i), headers: auth }) });
  // BENCH_ROUNDS rounds of every load, in turns (the floor and each type once per round), so a stretch of
  // machine noise falls on every type alike; each round is printed and then the median p99 per load.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  const loads: Array<{ label: string; c: number; next: (i: number) => { path: string; headers?: Record<string, string> } }> = [];
  for (const c of [8, 32]) {
    // The floor of this machine in the same run: the same middleware and HTTP path with no work behind it (no key, no I/O).
    loads.push({ label: `GET /healthz c=${c} (HTTP floor)`, c, next: () => ({ path: '/healthz' }) });
    for (const t of types) loads.push({ label: `recommend ${t} c=${c}`, c, next: (i) => ({ path: path(t, i + c * 100_000), headers: auth }) });
  }
  const p99s = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++) {
    for (const l of loads) {
      const res = await httpLoad({ origin, concurrency: l.c, durationMs: SECONDS * 1000, next: l.next });
      lines.push(formatLoad(rounds > 1 ? `${l.label} #${r + 1}` : l.label, res));
      p99s.set(l.label, [...(p99s.get(l.label) ?? []), res.p99]);
    }
  }
  if (rounds > 1) {
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const [label, xs] of p99s)
      lines.push(`${label.padEnd(34)} p99 median of ${rounds} ${median(xs).toFixed(2)} ms (${xs.map((x) => x.toFixed(1)).join(', ')})`);
  }
  const chorus = [...parseJudgments(readFileSync(join(base.sharedDataDir, 'chorus-icecat', 'judgments-dev.csv'), 'utf8')).keys()].map(encodeURIComponent);
  const setHybrid = async (on: boolean) => {
    const row = await deps.db('tenants').where({ id: tenant.id }).first('settings');
    await deps
      .db('tenants')
      .where({ id: tenant.id })
      .update({ settings: JSON.stringify({ ...row.settings, ranking: { ...(row.settings.ranking ?? {}), hybrid_search: on } }) });
    await deps.notices.publish('synonyms', tenant.id);
    await new Promise((r) => setTimeout(r, 300));
  };
  for (const on of process.env.BENCH_HYBRID === '0' ? [] : [false, true, false, true]) {
    await setHybrid(on);
    const c = 32;
    // Both APIs see every query once first: the no-cache API keeps its own query embeddings (per process), as a live one has them after the first search.
    for (const o of [origin, nocache])
      await httpLoad({ origin: o, concurrency: 8, durationMs: 2000, next: (i) => ({ path: `/v1/search?q=${chorus[i % chorus.length]}`, headers: auth }) });
    lines.push(
      formatLoad(
        `search hybrid ${on ? 'on ' : 'off'} c=${c} (no cache)`,
        await httpLoad({
          origin: nocache,
          concurrency: c,
          durationMs: SECONDS * 1000,
          next: (i) => ({ path: `/v1/search?q=${chorus[i % chorus.length]}`, headers: auth }),
        }),
      ),
    );
    lines.push(
      formatLoad(
        `search hybrid ${on ? 'on ' : 'off'} c=${c} (cache warm)`,
        await httpLoad({
          origin,
          concurrency: c,
          durationMs: SECONDS * 1000,
          next: (i) => ({ path: `/v1/search?q=${chorus[i % chorus.length]}`, headers: auth }),
        }),
      ),
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n(targets: recommend p99 <= 10 ms at c=32; hybrid uncached p50 <= 1.5x lexical uncached; cached unchanged)\n`);
} finally {
  await stopProcess(api);
  await stopProcess(api2);
  await stopProcess(worker);
  await deps.close();
  await db.drop();
}
