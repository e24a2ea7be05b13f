import type { Knex } from 'knex';
import { DEFAULT_SECRET_SCOPES } from './scopes.js';
import type { Tenant, tenantsRepo } from './tenants.repo.js';
import type { keysRepo } from './keys.repo.js';

export interface NewTenant {
  name: string;
  locales: string[];
  defaultLocale: string;
}

/** Creates a tenant and its first secret key (all scopes including admin), in one transaction. */
export async function createTenantWithKey(
  deps: { db: Knex; repos: { tenants: ReturnType<typeof tenantsRepo>; keys: ReturnType<typeof keysRepo> } },
  input: NewTenant,
): Promise<{ tenant: Tenant; key: string; keyId: string }> {
  if (!input.locales.includes(input.defaultLocale)) throw new Error(`default locale ${input.defaultLocale} is not one of ${input.locales.join(',')}`);
  if (!input.locales.every((l) => /^[a-z]{2}$/.test(l))) throw new Error('locales are two lowercase letters, e.g. en,ar');
  return deps.db.transaction(async (trx) => {
    const tenant = await deps.repos.tenants.create(input, trx);
    const { row, key } = await deps.repos.keys.create(
      tenant.id,
      { name: 'first secret key', kind: 'secret', scopes: [...DEFAULT_SECRET_SCOPES, 'admin'], allowedOrigins: [], expiresAt: null },
      trx,
    );
    return { tenant, key, keyId: row.id };
  });
}
