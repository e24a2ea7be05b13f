import { loadConfig } from '../shared/platform/config.js';
import { createDeps, type Deps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { parseCli, reportFailure, usageError } from './lib/cli.js';

const USAGE = 'usage: npm run tenant:create -- --name "My store" [--locales en,ar] [--default-locale en] [--session]';

/** Usage: npm run tenant:create -- --name "My store" --locales en,ar --default-locale en [--session] */
const { values } = parseCli(USAGE, {
  options: {
    name: { type: 'string' },
    locales: { type: 'string', default: 'en,ar' },
    'default-locale': { type: 'string' },
    session: { type: 'boolean', default: false },
  },
});
if (!values.name) usageError(USAGE, '--name is required');
const locales = values
  .locales!.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
if (!locales.length) usageError(USAGE, '--locales needs at least one locale, e.g. en,ar');
let deps: Deps | undefined;
try {
  deps = createDeps(loadConfig());
  await migrateLatest(deps.db);
  const { tenant, key } = await createTenantWithKey(deps, { name: values.name!, locales, defaultLocale: values['default-locale'] ?? locales[0] });
  const out: Record<string, string> = { tenant_id: tenant.id, secret_key: key };
  if (values.session) {
    const { token, row } = await deps.repos.sessions.create(tenant.id, null, 'cli', deps.config.sessionTtlHours);
    out.session_token = token;
    out.session_expires_at = row.expires_at.toISOString();
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  process.stderr.write('The secret key is shown only now: store it safely.\n');
} catch (err) {
  reportFailure(err);
} finally {
  await deps?.close();
}
