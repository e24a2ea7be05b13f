import type { Knex } from 'knex';

/**
 * Marking products indexed as one keyed UPDATE per product. A set-based UPDATE ... FROM unnest()
 * is planned from statistics, and while a tenant's first bulk load runs there are none: the
 * planner hashed or looped over the tenant's whole product_index_state (50-600 ms per 1,000 at
 * 100k products). Per-key updates cost ~20 ms per 1,000 at any size.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION mark_products_indexed(tenant text, ids text[], versions timestamptz[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      FOR i IN 1 .. coalesce(array_length(ids, 1), 0) LOOP
        UPDATE product_index_state SET indexed_version = versions[i], indexed_at = now()
         WHERE tenant_id = tenant AND product_id = ids[i] AND (indexed_version IS NULL OR indexed_version < versions[i]);
      END LOOP;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION mark_products_indexed(text, text[], timestamptz[])');
}
