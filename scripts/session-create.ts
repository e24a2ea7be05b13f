import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';

/** Usage: npm run session:create -- --tenant ten_... [--hours 12]; prints a dashboard session token once. */
const { values } = parseArgs({ options: { tenant: { type: 'string' }, hours: { type: 'string' } } });
if (!values.tenant) {
  process.stderr.write('usage: npm run session:create -- --tenant <tenant_id> [--hours 12]\n');
  process.exit(2);
}
const deps = createDeps(loadConfig());
try {
  const tenant = await deps.repos.tenants.find(values.tenant);
  if (!tenant) throw new Error(`no tenant ${values.tenant}`);
  const hours = values.hours ? Number(values.hours) : deps.config.sessionTtlHours;
  const { token, row } = await deps.repos.sessions.create(tenant.id, null, 'cli', hours);
  process.stdout.write(`${JSON.stringify({ session_id: row.id, session_token: token, expires_at: row.expires_at.toISOString() }, null, 2)}\n`);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await deps.close();
}
