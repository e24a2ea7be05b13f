import type { Knex } from 'knex';

// A store over SYNC_INLINE_PRODUCTS (10,000), made quickly: FILLERS copies of its product `a`
// written with SQL under the ids f00000..., older than any sync. Its full syncs complete through
// a finish-sync job. (A literal, so the tests also run on code without the bound.)
export const FILLERS = 10_000;
/** Fillers a test's sync sends (f00000..f00998); the rest are the sync's to delete. */
export const SENT_FILLERS = 999;

export const product = (id: string, name = `Product ${id}`) => ({ id, name: { en: name }, price: 10, currency: 'USD' });
export const fid = (n: number) => `f${String(n).padStart(5, '0')}`;

/** Adds the FILLERS copies of the store's product `a` (which must exist), an hour old. */
export const fill = (db: Knex, tenantId: string) =>
  db.raw(
    `INSERT INTO products (tenant_id, id, data, content_hash, updated_at)
     SELECT p.tenant_id, 'f' || lpad(g::text, 5, '0'), jsonb_set(p.data, '{id}', to_jsonb('f' || lpad(g::text, 5, '0'))), p.content_hash, now() - interval '1 hour'
       FROM products p, generate_series(0, ? - 1) g WHERE p.tenant_id = ? AND p.id = 'a'`,
    [FILLERS, tenantId],
  );
