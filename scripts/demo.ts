import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../shared/platform/config.js';
import { onShutdown } from '../shared/platform/shutdown.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { DEFAULT_SECRET_SCOPES } from '../shared/access/scopes.js';
import { startAllInOne } from './all-in-one.js';
import { loadCatalog } from './lib/load-catalog.js';
import { waitSearchable } from './lib/wait-searchable.js';
import { detectCatalogKind } from './catalog/mappers.js';

/**
 * npm run demo: API + workers on the built-in defaults, a demo tenant, a real sample catalog
 * from ../shared/data (--file or DEMO_CATALOG to change it), then a key and curl commands.
 */
const { values } = parseArgs({ options: { file: { type: 'string' }, limit: { type: 'string' } } });
try {
  const config = loadConfig();
  const file = resolve(values.file ?? process.env.DEMO_CATALOG ?? join(config.sharedDataDir, 'flipkart-products', 'products.jsonl.gz'));
  const app = await startAllInOne(config);
  onShutdown(() => app.stop());
  const deps = app.apiDeps;
  const existing = await deps.db('tenants').where({ name: 'Demo store' }).first();
  let tenantId: string;
  let key: string;
  if (existing) {
    tenantId = existing.id;
    key = (await deps.repos.keys.create(tenantId, { name: 'demo', kind: 'secret', scopes: [...DEFAULT_SECRET_SCOPES, 'admin'], allowedOrigins: [], expiresAt: null })).key;
  } else {
    const created = await createTenantWithKey(deps, { name: 'Demo store', locales: ['en', 'ar'], defaultLocale: 'en' });
    tenantId = created.tenant.id;
    key = created.key;
  }
  process.stderr.write(`loading ${file}\n`);
  const loaded = await loadCatalog({ url: app.url, key, file, kind: detectCatalogKind(file) as 'chorus' | 'flipkart', limit: values.limit ? Number(values.limit) : undefined, progress: true, runId: String(Date.now()) });
  process.stderr.write(`waiting until ${loaded.sent} products are searchable...\n`);
  await waitSearchable(deps, tenantId);
  const base = app.url.replace('127.0.0.1', 'localhost');
  process.stdout.write(`
Ready: ${loaded.sent} products (${loaded.errors.length} rejected) in tenant ${tenantId}.
KEY=${key}
curl -s "${base}/v1/search?q=cotton+kurta+under+1000&per_page=5" -H "Authorization: Bearer $KEY"
curl -s "${base}/v1/search?q=watch&filter[brand]=Fastrack&facets=brand,price,category_tree" -H "Authorization: Bearer $KEY"
curl -s "${base}/v1/suggest?q=sams" -H "Authorization: Bearer $KEY"
curl -s "${base}/v1/products?limit=2" -H "Authorization: Bearer $KEY"
curl -s "${base}/v1/openapi.json" | head -c 300
Ctrl-C stops the service.
`);
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
}
