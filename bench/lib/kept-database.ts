import { randomBytes } from 'node:crypto';
import knex from 'knex';
import type { Deps } from '../../shared/deps.js';
import { clearRedisPrefix } from '../../scripts/lib/fresh-database.js';
import { DEFAULT_SECRET_SCOPES } from '../../shared/access/index.js';

/** A database kept by an earlier run (BENCH_KEEP=1), reused as it is: never dropped; a new Redis prefix per run, cleared by `drop`. */
export function reusedDatabase(url: string) {
  const prefix = `pssbenchreuse${randomBytes(3).toString('hex')}`;
  return { url, prefix, drop: () => clearRedisPrefix(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix) };
}

/** The kept store named `name` with a new secret key (keys are shown once), or null when there is none. */
export async function keptStore(deps: Deps, name: string): Promise<{ tenant: { id: string }; key: string } | null> {
  const tenant = await deps.db('tenants').where({ name }).orderBy('created_at', 'desc').first();
  if (!tenant) return null;
  const { key } = await deps.repos.keys.create(tenant.id, {
    name: 'bench',
    kind: 'secret',
    scopes: [...DEFAULT_SECRET_SCOPES, 'admin'],
    allowedOrigins: [],
    expiresAt: null,
  });
  return { tenant, key };
}

/** Copies the tenant's newest key into another database holding the same store (BENCH_COMPARE_DB): one key reads both. */
export async function copyKeyTo(deps: Deps, tenantId: string, url: string): Promise<void> {
  const row = await deps.db('api_keys').where({ tenant_id: tenantId }).orderBy('created_at', 'desc').first();
  const other = knex({ client: 'pg', connection: url });
  try {
    await other('api_keys').insert(row).onConflict('id').ignore();
  } finally {
    await other.destroy();
  }
}
