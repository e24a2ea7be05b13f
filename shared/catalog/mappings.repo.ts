import type { Knex } from 'knex';
import type { MappingItem } from './mapping.js';

export function mappingsRepo(db: Knex) {
  return {
    async get(tenantId: string): Promise<{ items: MappingItem[]; updated_at: Date | null }> {
      const row = await db('attribute_mappings').where({ tenant_id: tenantId }).first();
      return row ? { items: row.items, updated_at: row.updated_at } : { items: [], updated_at: null };
    },
    /** Replaces the whole mapping. */
    async put(tenantId: string, items: MappingItem[]): Promise<{ items: MappingItem[]; updated_at: Date }> {
      const [row] = await db('attribute_mappings')
        .insert({ tenant_id: tenantId, items: JSON.stringify(items), updated_at: db.fn.now() })
        .onConflict('tenant_id')
        .merge()
        .returning('*');
      return { items: row.items, updated_at: row.updated_at };
    },
    /** Raw attributes found in the catalog: product counts and a few sample values each. */
    async discovered(tenantId: string): Promise<Array<{ raw_name: string; products: number; sample_values: string[] }>> {
      const { rows } = await db.raw(
        `SELECT a.key AS raw_name, count(*)::int AS products,
                (array_agg(DISTINCT left(CASE jsonb_typeof(a.value) WHEN 'string' THEN a.value #>> '{}' ELSE a.value::text END, 100)))[1:5] AS sample_values
           FROM products p, jsonb_each(p.data->'attributes') a
          WHERE p.tenant_id = ?
          GROUP BY a.key ORDER BY products DESC, raw_name LIMIT 2000`,
        [tenantId],
      );
      return rows;
    },
  };
}
