import type { Knex } from 'knex';

/**
 * Each product's nearest products by vector, computed by learn-events (`similar` recommendations
 * answered from memory instead of a scan of the store's vectors).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('similar_lists', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('product_id').notNullable();
    t.specificType('ids', 'text[]').notNullable();
    t.primary(['tenant_id', 'product_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('similar_lists');
}
