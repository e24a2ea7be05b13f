import type { Knex } from 'knex';

/** What each category's products are called (shared/search/category-profile.ts), rebuilt with the vocabulary. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('category_profiles', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('category').notNullable();
    t.jsonb('typical').notNullable();
    t.specificType('common', 'text[]').notNullable();
    t.primary(['tenant_id', 'category']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('category_profiles');
}
