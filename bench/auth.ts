import autocannon, { type Result } from 'autocannon';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { startApi } from '../api/main.js';

/**
 * bench/auth: what an API key costs per request. The API runs in this process (createDeps,
 * migrations on a fresh database, the real server from api/main.ts); autocannon fires from a
 * worker thread so the load generator does not share the API's event loop. Each endpoint gets a
 * warm-up, then they are measured in turn (never at once) in interleaved slices:
 *   1. GET /healthz                no credential, no I/O
 *   2. GET /v1/auth/whoami         key check from the in-process auth cache + rate limit, no I/O
 *   3. GET /v1/jobs/{id}           the same key check + one Postgres read
 *   4. GET /readyz                 no credential, Postgres `select 1` + Redis ping (an I/O baseline)
 * Target: authenticated >= 80 % of unauthenticated requests/s. Under `node --cpu-prof --import tsx`
 * the API's main thread and each autocannon worker thread write separate profiles.
 * Env: BENCH_SECONDS (8 per endpoint), BENCH_ROUNDS (4 slices), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (32),
 * BENCH_PORT (18383), BENCH_ONLY (a path prefix: measure one endpoint, e.g. under --cpu-prof).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PORT = process.env.BENCH_PORT ?? '18383';

const base = loadConfig();
const fresh = await freshDatabase(base.databaseUrl, 'pss_bench_auth');
const deps = createDeps(
  loadConfig({
    ...process.env,
    DATABASE_URL: fresh.url,
    QUEUE_PREFIX: fresh.prefix,
    HOST: '127.0.0.1',
    PORT,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_SECRET_PER_S: '100000000',
  }),
);
await migrateLatest(deps.db);
const api = await startApi(deps);
const origin = `http://127.0.0.1:${PORT}`;

function load(path: string, headers: Record<string, string>, seconds: number): Promise<Result> {
  return autocannon({ url: origin + path, headers, connections: CONNECTIONS, duration: seconds, workers: 1 });
}

try {
  const { tenant, key } = await createTenantWithKey(deps, { name: 'bench', locales: ['en'], defaultLocale: 'en' });
  const { job } = await deps.repos.jobs.create(tenant.id, 'export', { bench: true });
  const auth = { authorization: `Bearer ${key}` };
  const targets = [
    { label: 'GET /healthz (no auth)', path: '/healthz', headers: {} },
    { label: 'GET /v1/auth/whoami (key)', path: '/v1/auth/whoami', headers: auth },
    { label: 'GET /v1/jobs/{id} (key + 1 query)', path: `/v1/jobs/${job.id}`, headers: auth },
    { label: 'GET /readyz (no auth, PG + Redis)', path: '/readyz', headers: {} },
  ];
  const only = process.env.BENCH_ONLY; // e.g. BENCH_ONLY=/v1/jobs to profile one target
  const chosen = targets.filter((x) => !only || x.path.startsWith(only));
  for (const target of chosen) {
    const probe = await fetch(origin + target.path, { headers: target.headers });
    if (probe.status !== 200) throw new Error(`${target.path} answered ${probe.status}: ${await probe.text()}`);
    await load(target.path, target.headers, WARMUP);
  }
  // Slices taken in turn, so a slow drift of the machine (a noisy neighbour) hits every target alike.
  const slices = new Map<string, Result[]>(chosen.map((x) => [x.label, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of chosen) slices.get(target.label)!.push(await load(target.path, target.headers, SECONDS / ROUNDS));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rps = (r: Result) => r.requests.total / (r.duration || SECONDS / ROUNDS);
  const rows = chosen.map((x) => {
    const rs = slices.get(x.label)!;
    const total = rs.reduce((n, r) => n + r.requests.total, 0);
    const seconds = rs.reduce((n, r) => n + (r.duration || SECONDS / ROUNDS), 0);
    return {
      label: x.label,
      rps: total / seconds,
      perRound: rs.map(rps),
      p50: median(rs.map((r) => r.latency.p50)),
      p99: median(rs.map((r) => r.latency.p99)),
      ok: rs.reduce((n, r) => n + r['2xx'], 0),
      bad: rs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
    };
  });
  const num = (n: number) => n.toFixed(0).padStart(9);
  const lines = [
    '',
    `bench/auth: ${CONNECTIONS} connections, ${SECONDS} s per endpoint in ${ROUNDS} interleaved slices after ${WARMUP} s warm-up each;`,
    'API in-process, autocannon in a worker thread; latency: median over slices, 1 ms resolution',
    `${'endpoint'.padEnd(36)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'2xx'.padStart(9)}${'bad'.padStart(9)}`,
    ...rows.map((r) => `${r.label.padEnd(36)}${num(r.rps)}${num(r.p50)}${num(r.p99)}${num(r.ok)}${num(r.bad)}`),
  ];
  if (rows.length === targets.length) {
    const ratio = (a: number, b: number, note: string) => {
      const per = rows[a].perRound.map((v, i) => v / rows[b].perRound[i]);
      return `${((100 * rows[a].rps) / rows[b].rps).toFixed(1).padStart(6)} %  (slices ${(100 * Math.min(...per)).toFixed(0)}-${(100 * Math.max(...per)).toFixed(0)} %)  ${note}`;
    };
    lines.push(
      '',
      `whoami / healthz:   ${ratio(1, 0, 'auth alone; target >= 80 %')}`,
      `jobs/{id} / healthz:${ratio(2, 0, 'auth + one Postgres read; target >= 80 %')}`,
      `jobs/{id} / readyz: ${ratio(2, 3, 'both wait on Postgres; readyz also on Redis')}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  // autocannon drops its sockets at the deadline; let requests still waiting on the pool finish
  // before the pool is destroyed under them.
  const pool = (deps.db.client as { pool?: { numUsed(): number; numPendingAcquires(): number } }).pool;
  for (const until = Date.now() + 5000; pool && pool.numUsed() + pool.numPendingAcquires() > 0 && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await api.stop();
  await deps.close();
  await fresh.drop();
}
