import { loadConfig } from '../shared/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/db/knex.js';
import { createTenantWithKey } from '../shared/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { startProcess, stopProcess } from './lib/processes.js';
import { formatLoad, httpLoad } from './lib/http-load.js';

/**
 * bench/auth: requests/s of an authenticated cheap GET (`/v1/auth/whoami`: key lookup from the
 * in-process cache, rate limit, no database read) beside the unauthenticated `/healthz`, same
 * API process, same run. Target: authenticated >= 80 % of unauthenticated.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const base = loadConfig();
const db = await freshDatabase(base.databaseUrl, 'pss_bench_auth');
const env = { DATABASE_URL: db.url, QUEUE_PREFIX: db.prefix, PORT: '18383', LOG_LEVEL: 'warn', MIGRATE_ON_START: 'false', RATE_LIMIT_SECRET_PER_S: '10000000' };
const deps = createDeps(loadConfig({ ...process.env, ...env }));
await migrateLatest(deps.db);
const origin = 'http://127.0.0.1:18383';
const api = await startProcess('api/main.ts', env, async () => (await fetch(`${origin}/healthz`)).ok);
try {
  const { key } = await createTenantWithKey(deps, { name: 'bench', locales: ['en'], defaultLocale: 'en' });
  const auth = { authorization: `Bearer ${key}` };
  const lines: string[] = [];
  for (const c of [8, 32]) {
    const warm = { origin, concurrency: c, durationMs: 2000 };
    await httpLoad({ ...warm, next: () => ({ path: '/healthz' }) });
    await httpLoad({ ...warm, next: () => ({ path: '/v1/auth/whoami', headers: auth }) });
    const open = await httpLoad({ origin, concurrency: c, durationMs: SECONDS * 1000, next: () => ({ path: '/healthz' }) });
    const authed = await httpLoad({ origin, concurrency: c, durationMs: SECONDS * 1000, next: () => ({ path: '/v1/auth/whoami', headers: auth }) });
    lines.push(formatLoad(`GET /healthz c=${c}`, open), formatLoad(`GET /v1/auth/whoami (key) c=${c}`, authed), `  authenticated / unauthenticated: ${(100 * authed.rps / open.rps).toFixed(1)} %   (target >= 80 %)`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
} finally {
  await stopProcess(api);
  await deps.close();
  await db.drop();
}
