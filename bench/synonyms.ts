import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { waitSearchable } from '../scripts/lib/wait-searchable.js';
import { loadCatalog } from '../scripts/lib/load-catalog.js';
import { parseJudgments } from '../scripts/eval/metrics.js';
import { API_NODE_FLAGS, startProcess, stopProcess } from './lib/processes.js';
import { formatLoad, httpLoad } from './lib/http-load.js';

/**
 * bench/synonyms: search latency on the Chorus catalog with no tenant synonym rules, then with
 * 1,000 rules (the electronics defaults plus generated pairs), result cache off, same run.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const base = loadConfig();
const db = await freshDatabase(base.databaseUrl, 'pss_bench_syn');
const env = {
  DATABASE_URL: db.url,
  QUEUE_PREFIX: db.prefix,
  PORT: '18484',
  LOG_LEVEL: 'warn',
  MIGRATE_ON_START: 'false',
  SEARCH_CACHE_TTL_MS: '0',
  VOCAB_DEBOUNCE_MS: '1000',
  RATE_LIMIT_SECRET_PER_S: '10000000',
};
const deps = createDeps(loadConfig({ ...process.env, ...env }));
await migrateLatest(deps.db);
const origin = 'http://127.0.0.1:18484';
const api = await startProcess('api/main.ts', env, async () => (await fetch(`${origin}/healthz`)).ok, API_NODE_FLAGS);
const worker = await startProcess('workers/main.ts', env, async () => true);
try {
  const { tenant, key } = await createTenantWithKey(deps, { name: 'bench', locales: ['en'], defaultLocale: 'en' });
  const dir = join(base.sharedDataDir, 'chorus-icecat');
  await loadCatalog({ url: origin, key, file: join(dir, 'products.jsonl.gz'), kind: 'chorus', inFlight: 3, runId: 'syn' });
  await waitSearchable(deps, tenant.id);
  await stopProcess(worker);
  await deps.db.raw('ANALYZE');
  const queries = [...parseJudgments(readFileSync(join(dir, 'judgments-dev.csv'), 'utf8')).keys()].map(encodeURIComponent);
  const auth = { authorization: `Bearer ${key}` };
  const run = (label: string) =>
    httpLoad({
      origin,
      concurrency: 8,
      durationMs: SECONDS * 1000,
      next: (i) => ({ path: `/v1/search?q=${queries[i % queries.length]}`, headers: auth }),
    }).then((r) => formatLoad(label, r));
  const none = await run('search, 0 rules, c=8');
  const lines = readFileSync('synonyms/electronics-en.txt', 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  for (let i = lines.length; i < 1000; i++) lines.push(`term${i}a, term${i}b, term${i} c`);
  const res = await fetch(`${origin}/v1/synonyms/import`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ format: 'solr', content: lines.join('\n'), mode: 'replace' }),
  });
  const imported = (await res.json()) as { created: number };
  await new Promise((r) => setTimeout(r, 1000));
  const many = await run(`search, ${imported.created} rules, c=8`);
  process.stdout.write(`\n${none}\n${many}\n`);
} finally {
  await stopProcess(api);
  await stopProcess(worker);
  await deps.close();
  await db.drop();
}
