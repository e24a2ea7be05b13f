import type { Knex } from 'knex';

/**
 * Search documents and cards reference their tenant (ON DELETE CASCADE), as every table the store
 * writes does. Without the key, an index batch that read its products before the store's
 * deletion wrote their documents after it, and they stayed for ever (the deletion's walk over
 * tenant tables had run already). Now such a write either lands first (its key check holds the
 * tenant row until it commits, and the deletion then removes it) or fails. Rows of tenants
 * already gone are removed first.
 */
const TABLES = ['search_docs', 'search_cards'];

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw('DELETE FROM ?? d WHERE NOT EXISTS (SELECT 1 FROM tenants t WHERE t.id = d.tenant_id)', [table]);
    await knex.raw('ALTER TABLE ?? ADD CONSTRAINT ?? FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE', [table, `${table}_tenant_fk`]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.raw('ALTER TABLE ?? DROP CONSTRAINT IF EXISTS ??', [table, `${table}_tenant_fk`]);
}
