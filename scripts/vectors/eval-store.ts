import { resolve } from 'node:path';
import { loadConfig } from '../../shared/platform/config.js';
import { createTenantWithKey } from '../../shared/access/tenants.js';
import { startAllInOne } from '../all-in-one.js';
import { freshDatabase } from '../lib/fresh-database.js';
import { waitSearchable } from '../lib/wait-searchable.js';
import { COLLECTIONS, readCollectionJudgments, readProducts, sendProducts } from '../eval/collections.js';
import { vectorLag } from '../../shared/vectors/index.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * A judged collection (raw, as `npm run eval` loads it) on its own store in a fresh database with
 * API and workers in this process; resolves once it is searchable and every product has a vector.
 */
export async function evalStore(name: 'chorus' | 'crowdflower' = 'chorus', opts: { vectors?: boolean } = {}) {
  const base = loadConfig();
  const c = COLLECTIONS[name];
  const db = await freshDatabase(base.databaseUrl, 'pss_vec_eval');
  // An evaluation store has no subscription: the enterprise plan (no search cap), as in npm run eval.
  const config = loadConfig({
    BILLING_DEFAULT_PLAN: 'enterprise',
    ...process.env,
    DATABASE_URL: db.url,
    PORT: '0',
    QUEUE_PREFIX: db.prefix,
    VOCAB_DEBOUNCE_MS: '1000',
    LOG_LEVEL: 'warn',
    MIGRATE_ON_START: 'true',
    RATE_LIMIT_SECRET_PER_S: '100000',
  });
  const app = await startAllInOne(config);
  const deps = app.apiDeps;
  const dataDir = resolve(base.sharedDataDir);
  const [products, judgments] = await Promise.all([readProducts(dataDir, c), readCollectionJudgments(dataDir, c)]);
  const { tenant, key } = await createTenantWithKey(deps, { name: `eval-${c.name}`, locales: ['en'], defaultLocale: 'en' });
  const started = Date.now();
  await sendProducts(app.url, key, products, `vec-${started}`);
  await waitSearchable(deps, tenant.id);
  const searchable = Date.now() - started;
  for (const until = Date.now() + 900_000; opts.vectors !== false;) {
    const lag = await vectorLag(deps.db, deps.vectors, tenant.id);
    if (lag.pending === 0) break;
    if (Date.now() > until) throw new Error(`vectors incomplete after 15 minutes: ${JSON.stringify(lag)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  log(
    `[${c.name}] ${products.length} products: searchable in ${(searchable / 1000).toFixed(1)} s, vectors complete in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return {
    app,
    deps,
    tenantId: tenant.id,
    key,
    products,
    judgments,
    /** Saves ranking settings on the store (as a dashboard would) and drops what was cached with the old ones. */
    async ranking(settings: Record<string, unknown>) {
      const row = await deps.db('tenants').where({ id: tenant.id }).first('settings');
      const s = (row?.settings ?? {}) as { ranking?: Record<string, unknown> };
      await deps
        .db('tenants')
        .where({ id: tenant.id })
        .update({ settings: JSON.stringify({ ...s, ranking: { ...(s.ranking ?? {}), ...settings } }) });
      await deps.notices.publish('synonyms', tenant.id);
    },
    async stop() {
      await app.stop();
      await db.drop();
    },
  };
}
