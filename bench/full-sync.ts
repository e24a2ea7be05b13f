import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { waitSearchable } from '../scripts/lib/wait-searchable.js';
import { vectorLag } from '../shared/vectors/index.js';
import { API_NODE_FLAGS, apiNodeFlagsOf, startProcess, stopProcess } from './lib/processes.js';

/**
 * bench/full-sync: a store of 100k synthetic products (loaded through the batch API, indexed and embedded),
 * then full syncs through the batch API (one 1,000-product batch at a time, `replace_all`, a
 * `sync_id`, the last batch `sync_complete`) that leave out 0, 1,000 and 50,000 products. Prints
 * each other batch's p50/p99 (first and last ten batches apart: recording the seen set must not
 * grow with the sync), the completing batch's status and latency, and when the products left out
 * are gone (a cleanup job's end, when the batch answers with one). With BENCH_BASELINE_DIR (a
 * checkout of main, its own node_modules) the same run measures that checkout's processes first,
 * each side on a database of its own migrated by its own code.
 *   npx tsx bench/full-sync.ts
 */
const TOTAL = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const PER_BATCH = 1000;
const base = loadConfig();
const sides = [
  ...(process.env.BENCH_BASELINE_DIR ? [{ name: 'baseline', dir: process.env.BENCH_BASELINE_DIR }] : []),
  { name: 'this checkout', dir: process.cwd() },
];
const bodies = Array.from({ length: Math.ceil(TOTAL / PER_BATCH) }, (_, b) =>
  Array.from({ length: Math.min(PER_BATCH, TOTAL - b * PER_BATCH) }, (_, i) => {
    const n = b * PER_BATCH + i;
    return {
      id: `p${String(n).padStart(6, '0')}`,
      name: { en: `synthetic product ${n} ${['lamp', 'chair', 'desk', 'shelf'][n % 4]}` },
      price: (n % 500) + 0.99,
      currency: 'USD',
    };
  }),
);
const report: string[] = [];
for (const side of sides) report.push(`== ${side.name} (${side.dir})`, ...(await measure(side.dir)));
process.stdout.write(`\n${report.join('\n')}\n`);

async function measure(dir: string): Promise<string[]> {
  const db = await freshDatabase(base.databaseUrl, 'pss_bench_fullsync');
  const env = { DATABASE_URL: db.url, QUEUE_PREFIX: db.prefix, PORT: '18183', LOG_LEVEL: 'warn', MIGRATE_ON_START: 'true', WORKER_CONCURRENCY: 'catalog=2' };
  const url = 'http://127.0.0.1:18183';
  const flags = dir === process.cwd() ? API_NODE_FLAGS : apiNodeFlagsOf(dir);
  const api = await startProcess('api/main.ts', env, async () => (await fetch(`${url}/healthz`)).ok, flags, dir);
  const worker = await startProcess('workers/main.ts', env, async () => true, [], dir);
  const deps = createDeps(loadConfig({ ...process.env, ...env }));
  const out: string[] = [];
  try {
    const { tenant, key } = await createTenantWithKey(deps, { name: 'bench', locales: ['en'], defaultLocale: 'en' });
    const post = async (body: object) => {
      const t = performance.now();
      const res = await fetch(`${url}/v1/products/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { ms: performance.now() - t, status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    const restore = async () => {
      for (const upsert of bodies) if ((await post({ upsert })).status !== 200) throw new Error('load failed');
      await waitSearchable(deps, tenant.id, 600_000, false);
      // And embedded: a worker busy embedding the load runs a cleanup job's steps between its batches.
      for (const until = Date.now() + 1_800_000; (await vectorLag(deps.db, deps.vectors, tenant.id)).pending > 0 && Date.now() < until;) {
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    await restore();
    for (const [label, leftOut] of [
      ['deletes nothing', 0],
      ['deletes 1k', 1000],
      ['deletes 50k', 50_000],
    ] as const) {
      if ((await deps.repos.products.count(tenant.id)) < TOTAL) await restore();
      const sent = bodies.slice(0, Math.ceil((TOTAL - leftOut) / PER_BATCH));
      const syncId = `bench-${leftOut}-${Date.now()}`;
      const ms: number[] = [];
      for (const upsert of sent.slice(0, -1)) {
        const r = await post({ upsert, replace_all: true, sync_id: syncId });
        if (r.status !== 200) throw new Error(`sync batch: ${r.status} ${JSON.stringify(r.json)}`);
        ms.push(r.ms);
      }
      const done = await post({ upsert: sent.at(-1), replace_all: true, sync_id: syncId, sync_complete: true });
      const job = (done.json.sync_job as { id: string } | undefined)?.id;
      const jobMs = job ? await waitJob(deps, job, done.ms) : null;
      const left = await deps.repos.products.count(tenant.id);
      out.push(
        `${label}: other ${ms.length} batches p50 ${pct(ms, 50)} ms p99 ${pct(ms, 99)} ms (first 10 p50 ${pct(ms.slice(0, 10), 50)} ms, last 10 p50 ${pct(ms.slice(-10), 50)} ms); ` +
          `completing batch ${done.status} in ${done.ms.toFixed(0)} ms (deleted ${String(done.json.deleted ?? done.json.code)})` +
          `${jobMs === null ? '' : `, cleanup job done ${jobMs.ms.toFixed(0)} ms after the batch was sent (queued ${jobMs.queuedMs} ms, ran ${jobMs.ranMs} ms)`}; products left ${left} (expected ${done.status === 200 ? TOTAL - leftOut : TOTAL})`,
      );
      process.stderr.write(`${out.at(-1)}\n`);
    }
  } finally {
    await stopProcess(api);
    await stopProcess(worker);
    await deps.close();
    await db.drop();
  }
  return out;
}

async function waitJob(deps: ReturnType<typeof createDeps>, id: string, sentMs: number): Promise<{ ms: number; queuedMs: number; ranMs: number }> {
  const t = performance.now() - sentMs;
  for (const until = Date.now() + 600_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    const row = await deps.db('jobs').where({ id }).first('status', 'created_at', 'started_at', 'finished_at');
    if (row && ['succeeded', 'failed', 'canceled'].includes(row.status)) {
      if (row.status !== 'succeeded') throw new Error(`cleanup job ${id} ${row.status}`);
      return { ms: performance.now() - t, queuedMs: row.started_at - row.created_at, ranMs: row.finished_at - row.started_at };
    }
  }
  throw new Error(`cleanup job ${id} did not end`);
}

function pct(xs: number[], p: number): string {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(0) : '-';
}
