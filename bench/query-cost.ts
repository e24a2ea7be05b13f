import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { waitSearchable } from '../scripts/lib/wait-searchable.js';
import { API_NODE_FLAGS, startProcess, stopProcess } from './lib/processes.js';
import { prepareReplicated, sendPrepared } from './lib/catalog-100k.js';

/**
 * bench/query-cost (issue 12, item 6): the cost of one adversarial query, 128 one-letter words
 * in `q` sent with a public key, alone and at concurrency 4, and another store's ordinary
 * searches meanwhile. BENCH_PRODUCTS (default 20,000) per store.
 */
const TOTAL = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const base = loadConfig();
const db = await freshDatabase(base.databaseUrl, 'pss_bench_qcost');
const env = {
  DATABASE_URL: db.url,
  QUEUE_PREFIX: db.prefix,
  PORT: '18292',
  LOG_LEVEL: 'warn',
  MIGRATE_ON_START: 'false',
  VOCAB_DEBOUNCE_MS: '2000',
  RATE_LIMIT_SECRET_PER_S: '1000000',
  RATE_LIMIT_PUBLIC_PER_S: '1000000',
  SEARCH_CACHE_TTL_MS: '0',
};
const deps = createDeps(loadConfig({ ...process.env, ...env }));
await migrateLatest(deps.db);
const origin = 'http://127.0.0.1:18292';
const api = await startProcess('api/main.ts', env, async () => (await fetch(`${origin}/healthz`)).ok, API_NODE_FLAGS);
const worker = await startProcess('workers/main.ts', env, async () => true);
const ORIGIN = 'https://shop.example';
try {
  const stores = [];
  const bodies = await prepareReplicated(base.sharedDataDir, TOTAL);
  for (const name of ['attacked', 'neighbour']) {
    const { tenant, key } = await createTenantWithKey(deps, { name, locales: ['en', 'ar'], defaultLocale: 'en' });
    await sendPrepared({ url: origin, key, bodies, inFlight: 4, runId: name, progress: false });
    const pub = (await (
      await fetch(`${origin}/v1/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'web', kind: 'public', allowed_origins: [ORIGIN] }),
      })
    ).json()) as { key: string };
    stores.push({ tenant, key, pub: pub.key });
  }
  for (const s of stores) await waitSearchable(deps, s.tenant.id);
  await stopProcess(worker);
  await deps.db.raw('VACUUM (ANALYZE)');

  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const words128 = Array.from({ length: 128 }, (_, i) => letters[(i * 7) % 26]).join(' ');
  const search = async (pub: string, q: string) => {
    const t0 = performance.now();
    const res = await fetch(`${origin}/v1/search?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${pub}`, origin: ORIGIN } });
    const body = (await res.json()) as { total?: number; error?: { code: string } };
    return { ms: performance.now() - t0, status: res.status, total: body.total ?? body.error?.code };
  };
  const [attacked, neighbour] = stores;
  const ordinary = ['laptop', 'usb cable', 'red dress', 'watch', 'hard drive 1tb', 'samsung phone'];
  const lines = [`${TOTAL} products per store; q = 128 one-letter words (${words128.length} characters), public key, result cache off`];
  for (let i = 0; i < 3; i++) {
    const r = await search(attacked.pub, words128);
    lines.push(`alone #${i + 1}: ${r.ms.toFixed(0)} ms (status ${r.status}, total ${r.total})`);
  }
  const debug = (await (
    await fetch(`${origin}/v1/search?q=${encodeURIComponent(words128)}&debug=true`, { headers: { authorization: `Bearer ${attacked.key}` } })
  ).json()) as { debug: { steps: Array<{ step: string; ms: number }> } };
  lines.push(`steps (debug, ms): ${debug.debug.steps.map((s) => `${s.step} ${s.ms.toFixed(1)}`).join(', ')}`);
  const calm = [];
  for (const q of ordinary) calm.push((await search(neighbour.pub, q)).ms);
  const storm = Array.from({ length: 4 }, async () => {
    const times = [];
    for (let i = 0; i < 3; i++) times.push(await search(attacked.pub, words128));
    return times;
  });
  const during: number[] = [];
  let stormDone = false;
  const neighbourLoop = (async () => {
    while (!stormDone) for (const q of ordinary) during.push((await search(neighbour.pub, q)).ms);
  })();
  const stormTimes = (await Promise.all(storm)).flat();
  stormDone = true;
  await neighbourLoop;
  const max = (xs: number[]) => Math.max(...xs).toFixed(0);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(1);
  lines.push(
    `concurrency 4 (12 queries): median ${median(stormTimes.map((r) => r.ms))} ms, max ${max(stormTimes.map((r) => r.ms))} ms, statuses ${[...new Set(stormTimes.map((r) => r.status))].join(',')}`,
  );
  lines.push(
    `other store's searches: before median ${median(calm)} ms; during the storm median ${median(during)} ms, max ${max(during)} ms (${during.length} searches)`,
  );
  process.stdout.write(`\n${lines.join('\n')}\n`);
} finally {
  await stopProcess(api);
  await stopProcess(worker);
  await deps.close();
  await db.drop();
}
