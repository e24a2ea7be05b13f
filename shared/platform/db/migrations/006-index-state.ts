import type { Knex } from 'knex';

/**
 * Indexing state moves out of the wide products row into a narrow table. Marking 1,000 products
 * indexed rewrote 1,000 products rows (about 2 kB each, and never a HOT update because indexed_at
 * was in the predicate of products_unindexed): a third of Postgres time in bench/ingest, a
 * doubled products table, and 1.2 kB of WAL per product. Now it rewrites 1,000 rows of about
 * 100 bytes. `version` mirrors products.updated_at (written in the same statement), so the
 * partial index can list what is not indexed in its latest version without touching products.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('product_index_state', (t) => {
    t.text('tenant_id').notNullable();
    t.text('product_id').notNullable();
    t.timestamp('version', { useTz: true }).notNullable();
    t.timestamp('indexed_version', { useTz: true });
    t.timestamp('indexed_at', { useTz: true });
    t.primary(['tenant_id', 'product_id']);
  });
  await knex.raw(`CREATE INDEX product_index_state_stale ON product_index_state (tenant_id, version)
                  WHERE indexed_version IS NULL OR indexed_version < version`);
  await knex.raw(`INSERT INTO product_index_state (tenant_id, product_id, version, indexed_version, indexed_at)
                  SELECT tenant_id, id, updated_at, CASE WHEN indexed_at >= updated_at THEN updated_at END, indexed_at FROM products`);
  // No foreign key: its per-row check cost ~30 ms per 1,000-product batch on the API's write.
  // Every way a product goes (batch delete, full sync, single delete, tenant cascade) is a
  // DELETE on products, so one statement trigger keeps the two tables in step.
  await knex.raw(`CREATE FUNCTION products_forget_index_state() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM product_index_state s USING gone g WHERE s.tenant_id = g.tenant_id AND s.product_id = g.id;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER products_forget_index_state AFTER DELETE ON products
                  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION products_forget_index_state()`);
  await knex.raw('DROP INDEX products_unindexed');
  await knex.schema.alterTable('products', (t) => t.dropColumn('indexed_at'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => t.timestamp('indexed_at', { useTz: true }));
  await knex.raw(`UPDATE products p SET indexed_at = s.indexed_at FROM product_index_state s
                  WHERE s.tenant_id = p.tenant_id AND s.product_id = p.id AND s.indexed_version = p.updated_at`);
  await knex.raw(`CREATE INDEX products_unindexed ON products (tenant_id, updated_at) WHERE indexed_at IS NULL OR indexed_at < updated_at`);
  await knex.raw('DROP TRIGGER products_forget_index_state ON products');
  await knex.raw('DROP FUNCTION products_forget_index_state()');
  await knex.schema.dropTable('product_index_state');
}
