import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { canonicalProduct, toStored } from '../shared/catalog/index.js';
import { startBackfill } from '../shared/translation/index.js';
import { freshDatabase } from '../scripts/lib/fresh-database.js';
import { startFakeOpenAi } from '../test/helpers/openai-fake.js';
import { peakRssMiB, startProcess, stopProcess } from './lib/processes.js';

/**
 * bench/translate: a 20k-product backfill (name + description: 40k fields) through the whole
 * translation pipeline (collect -> protect -> translate -> restore -> check -> route -> index,
 * then the catalog index stage) in worker processes, against a local OpenAI-compatible server
 * answering at once (pipeline cost) and after 300 ms per call (what batching and concurrency reach).
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
/** BENCH_PROFILE_DIR: a CPU profile of each worker process (.cpuprofile) is written there. */
const PROFILE = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
const WORDS = [
  'black',
  'leather',
  'strap',
  'steel',
  'watch',
  'classic',
  'kitchen',
  'chair',
  'cotton',
  'dress',
  'water',
  'bottle',
  'smart',
  'phone',
  'case',
  'blue',
  'table',
  'wooden',
  'running',
  'shoes',
];
const word = (i: number) => WORDS[(i * 7919) % WORDS.length];
const phrase = (seed: number, n: number) => Array.from({ length: n }, (_, k) => word(seed + k * 13)).join(' ');

function product(i: number) {
  return canonicalProduct(
    toStored({
      id: `p${i}`,
      name: { en: `${phrase(i, 4)} ${i % 97} pack` },
      description: { en: `${phrase(i + 3, 18)}, ${i % 50} mm, by Brand${i % 40}.` },
      brand: `Brand${i % 40}`,
      model: `M-${i}`,
      price: 10,
      currency: 'USD',
      in_stock: true,
      visible: true,
    }),
  );
}

async function run(latencyMs: number) {
  const fake = await startFakeOpenAi({ latencyMs });
  const base = loadConfig();
  const db = await freshDatabase(base.databaseUrl, 'pss_bench_translate');
  const env = {
    DATABASE_URL: db.url,
    QUEUE_PREFIX: db.prefix,
    LOG_LEVEL: 'warn',
    MIGRATE_ON_START: 'false',
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'sk-bench',
    WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? 'translation=4,translation-provider=8,catalog=2',
    TRANSLATION_BATCH_FIELDS: process.env.TRANSLATION_BATCH_FIELDS ?? '25',
    TRANSLATION_PARALLEL_CALLS: process.env.TRANSLATION_PARALLEL_CALLS ?? '4',
    TRANSLATION_CHUNK_FIELDS: process.env.TRANSLATION_CHUNK_FIELDS ?? '200',
    VOCAB_DEBOUNCE_MS: '600000',
    // This machine is shared: a slow Redis answer under load is not a failure here.
    REDIS_COMMAND_TIMEOUT_MS: process.env.REDIS_COMMAND_TIMEOUT_MS ?? '10000',
  };
  const config = loadConfig({ ...process.env, ...env });
  const deps = createDeps(config);
  await migrateLatest(deps.db);
  // Ready once every worker process listens on the provider queue (the last one each opens), so start-up is not timed.
  const workers = [];
  for (let i = 0; i < WORKERS; i++)
    workers.push(await startProcess('workers/main.ts', env, async () => (await deps.queues.get('translation-provider').getWorkers()).length > i, PROFILE));
  try {
    const { tenant } = await createTenantWithKey(deps, { name: 'bench', locales: ['en', 'ar'], defaultLocale: 'en' });
    for (let i = 0; i < PRODUCTS; i += 1000) {
      await deps.repos.products.writeBatch(tenant.id, { upserts: Array.from({ length: Math.min(1000, PRODUCTS - i) }, (_, k) => product(i + k)), deletes: [] });
    }
    await deps.db.raw('ANALYZE');
    const t0 = Date.now();
    const { estimate, job } = await startBackfill(
      {
        repos: { jobs: deps.repos.jobs },
        queues: deps.queues,
        catalog: deps.repos.products,
        items: deps.repos.translationItems,
        tenants: deps.repos.tenants,
        translator: deps.translator,
        batchFields: config.translation.batchFields,
      },
      tenant.id,
      { target_locale: 'ar', fields: ['name', 'description'], scope: 'missing', product_ids: null, review_top_n: 0, dry_run: false },
    );
    const started = Date.now();
    let row = job!;
    while (!['succeeded', 'failed', 'canceled'].includes(row.status)) {
      await new Promise((r) => setTimeout(r, 100));
      row = (await deps.repos.jobs.get(job!.id))!;
    }
    const finished = Date.now();
    if (row.status !== 'succeeded') throw new Error(`backfill ${row.status}: ${row.error}`);
    while ((await deps.repos.products.countUnindexed(tenant.id)) > 0) await new Promise((r) => setTimeout(r, 100));
    const indexed = Date.now();
    const fields = Number(estimate.fields);
    // Where the time goes: per stage, mean time waiting in its queue and mean time running.
    const perStage = new Map<string, { wait: number; run: number; n: number }>();
    for (const queue of ['translation', 'translation-provider']) {
      for (const j of await deps.queues.get(queue).getJobs(['completed'], 0, 5000)) {
        const s = perStage.get(j.name) ?? { wait: 0, run: 0, n: 0 };
        s.wait += (j.processedOn ?? 0) - j.timestamp;
        s.run += (j.finishedOn ?? 0) - (j.processedOn ?? 0);
        s.n++;
        perStage.set(j.name, s);
      }
    }
    const stages = [...perStage].map(([name, s]) => `${name} ${Math.round(s.wait / s.n)}/${Math.round(s.run / s.n)}`).join(', ');
    const result = row.result as Record<string, number>;
    return [
      `provider latency ${latencyMs} ms: ${fields} fields of ${PRODUCTS} products (estimate + job start ${((started - t0) / 1000).toFixed(1)} s)`,
      `  backfill job: ${((finished - started) / 1000).toFixed(1)} s = ${(fields / ((finished - started) / 1000)).toFixed(0)} fields/s  (${result.machine ?? 0} machine, ${result.review ?? 0} review, ${result.chunks} chunks, ${fake.requests.length} provider calls)`,
      `  until every translated product is re-indexed: ${((indexed - started) / 1000).toFixed(1)} s = ${(fields / ((indexed - started) / 1000)).toFixed(0)} fields/s`,
      `  stage mean ms waiting/running: ${stages}`,
      `  peak RSS workers: ${workers.map((w) => `${peakRssMiB(w.pid).toFixed(0)} MiB`).join(', ')}`,
    ];
  } finally {
    await Promise.all(workers.map(stopProcess));
    await deps.close();
    await db.drop();
    await fake.close();
  }
}

const out = [`worker processes: ${WORKERS}`];
for (const latency of (process.env.BENCH_LATENCIES ?? '0,300').split(',').map(Number)) out.push(...(await run(latency)));
process.stdout.write(`\n${out.join('\n')}\n(targets: >= 2,000 fields/s pipeline throughput at 0 ms, >= 200 fields/s at 300 ms)\n`);
