import { loadConfig } from '../shared/platform/config.js';
import { createDeps, type Deps } from '../shared/deps.js';
import { numberOption, parseCli, reportFailure, usageError } from './lib/cli.js';

const USAGE = 'usage: npm run session:create -- --tenant <tenant_id> [--hours 12]   (hours: above 0, at most 720)';

/** Usage: npm run session:create -- --tenant ten_... [--hours 12]; prints a dashboard session token once. */
const { values } = parseCli(USAGE, { options: { tenant: { type: 'string' }, hours: { type: 'string' } } });
if (!values.tenant) usageError(USAGE, '--tenant is required');
// The bounds POST /v1/sessions applies to ttl_hours.
const hours = numberOption(USAGE, 'hours', values.hours, { above: 0, max: 24 * 30 });
let deps: Deps | undefined;
try {
  deps = createDeps(loadConfig());
  const tenant = await deps.repos.tenants.find(values.tenant!);
  if (!tenant) throw new Error(`no tenant ${values.tenant}`);
  const { token, row } = await deps.repos.sessions.create(tenant.id, null, 'cli', hours ?? deps.config.sessionTtlHours);
  process.stdout.write(`${JSON.stringify({ session_id: row.id, session_token: token, expires_at: row.expires_at.toISOString() }, null, 2)}\n`);
} catch (err) {
  reportFailure(err);
} finally {
  await deps?.close();
}
