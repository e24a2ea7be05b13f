import { loadConfig } from '../shared/platform/config.js';
import { startAllInOne } from './all-in-one.js';
import { parseCli, usageError } from './lib/cli.js';

const USAGE = 'usage: npm run try -- --db <database url> --tenant <tenant name> [--lang en] [--top 10] "query" ...';

/**
 * npm run try -- --db <url> --tenant <name> [--lang en] [--top 10] "query one" "query two" ...
 * Runs shopper-style queries through /v1/search (debug trace on) against a store a kept database
 * holds (`npm run eval -- --keep` keeps the eval stores, named eval-chorus and eval-crowdflower),
 * and prints for each the plan (weights, product type, corrections, compounds), the fallback, and
 * the top results with their scores. For finding failures that are a missing mechanism on catalogs
 * without judgments; nothing is written but a throwaway key.
 */
const { values, positionals } = parseCli(USAGE, {
  allowPositionals: true,
  options: {
    db: { type: 'string' },
    tenant: { type: 'string' },
    lang: { type: 'string', default: 'en' },
    top: { type: 'string', default: '10' },
  },
});
if (!values.db || !values.tenant || !positionals.length) usageError(USAGE, `${!values.db ? '--db' : !values.tenant ? '--tenant' : 'a query'} is required`);
const config = loadConfig({
  ...process.env,
  DATABASE_URL: values.db,
  PORT: '0',
  QUEUE_PREFIX: `psstry${Date.now()}`,
  LOG_LEVEL: 'warn',
  BILLING_DEFAULT_PLAN: 'enterprise',
});
const app = await startAllInOne(config);
try {
  const tenant = await app.apiDeps.db('tenants').where({ name: values.tenant }).orderBy('created_at', 'desc').first();
  if (!tenant) throw new Error(`no tenant named ${values.tenant}`);
  const { key } = await app.apiDeps.repos.keys.create(tenant.id, {
    name: 'try-queries',
    kind: 'secret',
    scopes: ['search'],
    allowedOrigins: [],
    expiresAt: null,
  });
  for (const q of positionals) {
    const params = new URLSearchParams({ q, lang: values.lang!, per_page: values.top!, debug: 'true' });
    const res = await fetch(`${app.url}/v1/search?${params}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as {
      total: number;
      hits: Array<{ score: number; product: { name: Record<string, string> } }>;
      debug?: { steps: Array<Record<string, unknown>> };
    };
    process.stdout.write(`== ${q} (${res.status}, total ${body.total})\n`);
    for (const step of body.debug?.steps ?? []) {
      if (step.step !== 'plan' && step.step !== 'fallback') continue;
      const { step: name, ms: _ms, ...rest } = step;
      process.stdout.write(`   ${name}: ${JSON.stringify(rest)}\n`);
    }
    for (const h of body.hits ?? []) {
      const name = h.product.name[values.lang!] ?? Object.values(h.product.name)[0] ?? '';
      process.stdout.write(`   ${h.score.toFixed(3).padStart(8)}  ${name.slice(0, 110)}\n`);
    }
  }
} finally {
  await app.stop();
}
