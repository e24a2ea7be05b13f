import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';

export interface Tenant {
  id: string;
  name: string;
  locales: string[];
  default_locale: string;
  settings: Record<string, unknown>;
  created_at: Date;
}

export function tenantsRepo(db: Knex) {
  return {
    async create(input: { name: string; locales: string[]; defaultLocale: string }, trx: Knex = db): Promise<Tenant> {
      const [row] = await trx('tenants')
        .insert({ id: newId('ten'), name: input.name, locales: input.locales, default_locale: input.defaultLocale })
        .returning('*');
      return row;
    },
    async find(id: string): Promise<Tenant | undefined> {
      return db('tenants').where({ id }).first();
    },
  };
}
