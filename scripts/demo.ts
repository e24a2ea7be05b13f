import { resolve } from 'node:path';
import { loadConfig } from '../shared/platform/config.js';
import { onShutdown } from '../shared/platform/shutdown.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { DEFAULT_SECRET_SCOPES } from '../shared/access/scopes.js';
import { startAllInOne } from './all-in-one.js';
import { loadCatalog, type LoadResult } from './lib/load-catalog.js';
import { waitSearchable } from './lib/wait-searchable.js';
import { detectCatalogKind, type CatalogKind } from './catalog/mappers.js';
import { SHIPPED_SAMPLES, type ShippedSample } from './sample/samples.js';
import { demoExamples } from './sample/demo-examples.js';
import { apiClient, must } from './client/client.js';
import { numberOption, parseCli, reportFailure } from './lib/cli.js';

const USAGE = `usage: npm run demo [-- --file <catalog.jsonl[.gz]> [--kind chorus|flipkart|product-in] [--limit N]]
  starts the API and workers, loads the shipped samples (or --file, or DEMO_CATALOG) into "Demo store" and prints a key and curl commands`;

/**
 * npm run demo: API + workers on the built-in defaults, a demo tenant (locales en, ar), the catalog samples shipped in
 * scripts/sample/ (or any catalog with --file / DEMO_CATALOG, e.g. the full ones in ../shared/data), then a key and curl commands.
 */
const { values } = parseCli(USAGE, { options: { file: { type: 'string' }, kind: { type: 'string' }, limit: { type: 'string' } } });
const limit = numberOption(USAGE, 'limit', values.limit, { min: 0 });
// Ctrl-C while loading makes the load fail (the API closes under it): that is the shutdown, not an error to report.
let stopping = false;
const loading = new AbortController();
try {
  // The demo loads everything at once and waits for suggestions: a 2 s vocabulary window instead of 30 s makes it ready sooner.
  // The demo store has no subscription: it runs on the enterprise plan (no caps) unless BILLING_DEFAULT_PLAN says otherwise.
  const config = loadConfig({ VOCAB_DEBOUNCE_MS: '2000', BILLING_DEFAULT_PLAN: 'enterprise', ...process.env });
  const given = values.file ?? process.env.DEMO_CATALOG;
  const catalogs: ShippedSample[] = given
    ? [{ file: resolve(given), kind: (values.kind ?? detectCatalogKind(given)) as CatalogKind, label: 'catalog' }]
    : [...SHIPPED_SAMPLES];
  const app = await startAllInOne(config);
  onShutdown(() => {
    stopping = true;
    loading.abort();
    return app.stop();
  });
  const deps = app.apiDeps;
  const existing = await deps.db('tenants').where({ name: 'Demo store' }).first();
  let tenantId: string;
  let key: string;
  if (existing) {
    tenantId = existing.id;
    key = (
      await deps.repos.keys.create(tenantId, { name: 'demo', kind: 'secret', scopes: [...DEFAULT_SECRET_SCOPES, 'admin'], allowedOrigins: [], expiresAt: null })
    ).key;
  } else {
    const created = await createTenantWithKey(deps, { name: 'Demo store', locales: ['en', 'ar'], defaultLocale: 'en' });
    tenantId = created.tenant.id;
    key = created.key;
  }
  const runId = String(Date.now());
  const loaded: LoadResult[] = [];
  for (const [i, catalog] of catalogs.entries()) {
    process.stderr.write(`loading ${catalog.label}: ${catalog.file}\n`);
    // Each file gets its own Idempotency-Key prefix: the same key with another body would be refused.
    loaded.push(
      await loadCatalog({
        url: app.url,
        key,
        file: catalog.file,
        kind: catalog.kind,
        limit,
        progress: true,
        runId: `${runId}-${i}`,
        signal: loading.signal,
      }),
    );
  }
  const sent = loaded.reduce((n, r) => n + r.sent, 0);
  const rejected = loaded.flatMap((r) => r.errors);
  for (const e of rejected.slice(0, 5)) process.stderr.write(`  rejected ${e.id ?? '?'} ${e.code}: ${e.message}\n`);
  process.stderr.write(`waiting until ${sent} products are searchable...\n`);
  await waitSearchable(deps, tenantId);
  // A public key for the storefront page, allowed from this server's own origins (the page is served here).
  const base = app.url.replace('127.0.0.1', 'localhost');
  const port = new URL(app.url).port;
  const storefront = must(
    'creating the storefront key',
    await apiClient(app.url, key).POST('/v1/keys', {
      body: { name: 'demo storefront', kind: 'public', allowed_origins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`] },
    }),
  );
  const page = (lang: string) => `${base}/demo?app=${tenantId}&key=${storefront.key}&lang=${lang}`;
  process.stdout.write(`
Ready: ${sent} products (${rejected.length} rejected) in tenant ${tenantId}.
KEY=${key}
# the storefront page (the search widget, InstantSearch-compatible endpoint under /algolia), English and Arabic:
${page('en')}
${page('ar')}
${demoExamples(app.url.replace('127.0.0.1', 'localhost'), given === undefined).join('\n')}
Ctrl-C stops the service.
`);
} catch (err) {
  if (stopping) await new Promise(() => {}); // onShutdown exits once the service has stopped
  reportFailure(err);
  process.exit(1);
}
