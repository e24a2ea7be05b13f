import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { API_NODE_FLAGS, startProcess, stopProcess } from './lib/processes.js';
import { prepareReplicated, sendPrepared } from './lib/catalog-100k.js';

/**
 * bench/api-memory: what an API process holds after it took a catalog load. One API process
 * (API_PROCESSES=1, `npm run api`'s flags) takes BENCH_PRODUCTS (100k) through the batch API (no
 * worker: the API's own part only), then idles; a preloaded probe (bench/lib/memory-probe.mjs)
 * writes its RSS, V8 heap spaces, external memory and array buffers every second. Each variant
 * (BENCH_VARIANTS, `;`-separated `name=FLAG,FLAG|ENV=VALUE`) runs in a fresh process on the same
 * database, in turn.
 */
const TOTAL = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 20_000);
const base = loadConfig();
const db = await freshDatabase(base.databaseUrl, 'pss_bench_apimem');
const env = {
  DATABASE_URL: db.url,
  QUEUE_PREFIX: db.prefix,
  PORT: '18381',
  LOG_LEVEL: 'warn',
  MIGRATE_ON_START: 'false',
  API_PROCESSES: '1',
  RATE_LIMIT_SECRET_PER_S: '1000000',
};
const deps = createDeps(loadConfig({ ...process.env, ...env }));
await migrateLatest(deps.db);
const variants = (process.env.BENCH_VARIANTS ?? `as deployed=${API_NODE_FLAGS.join(',')}`).split(';').map((v) => {
  const [name, rest] = v.split('=', 2).length === 2 ? [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)] : [v, ''];
  const [flags, envs] = rest.split('|');
  return {
    name,
    flags: (flags ?? '').split(',').filter(Boolean),
    env: Object.fromEntries(
      (envs ?? '')
        .split(',')
        .filter(Boolean)
        .map((e) => e.split('=')),
    ),
  };
});
const origin = `http://127.0.0.1:${env.PORT}`;
try {
  const bodies = await prepareReplicated(base.sharedDataDir, TOTAL);
  for (const [i, v] of variants.entries()) {
    const file = `/tmp/pss-api-memory-${process.pid}-${i}.jsonl`;
    rmSync(file, { force: true });
    const api = await startProcess('api/main.ts', { ...env, ...v.env, MEMORY_PROBE_FILE: file }, async () => (await fetch(`${origin}/healthz`)).ok, [
      '--expose-gc',
      ...v.flags,
      '--import',
      './bench/lib/memory-probe.mjs',
    ]);
    try {
      const { key } = await createTenantWithKey(deps, { name: `mem-${i}`, locales: ['en', 'ar'], defaultLocale: 'en' });
      const sent = await sendPrepared({ url: origin, key, bodies, inFlight: 4, runId: `mem${i}` });
      const loadedAt = Date.now();
      await new Promise((r) => setTimeout(r, IDLE_MS));
      api.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 1500));
      const samples = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const peak = samples.reduce((a, s) => (s.rss > a.rss ? s : a));
      const atLoad = samples.filter((s) => s.at <= loadedAt).pop();
      const idle = samples.filter((s) => s.label === 'tick').pop();
      const gc = samples.find((s) => s.label === 'after-gc');
      const show = (s: (typeof samples)[number]) =>
        s
          ? `rss ${s.rss} heap ${s.heapUsed}/${s.heapTotal} (new ${s.spaces.new_space}, old ${s.spaces.old_space}, large ${s.spaces.large_object_space}) external ${s.external} buffers ${s.arrayBuffers}`
          : '-';
      process.stdout.write(
        `${v.name} (${sent.sent} products in ${sent.seconds.toFixed(0)} s):\n  peak      ${show(peak)}\n  loaded    ${show(atLoad)}\n  idle ${IDLE_MS / 1000} s ${show(idle)}\n  after gc  ${show(gc)}\n`,
      );
    } finally {
      await stopProcess(api);
      rmSync(file, { force: true });
    }
  }
  process.stdout.write(
    `(MiB; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')})\n`,
  );
} finally {
  await deps.close();
  await db.drop();
}
