import type { Knex } from 'knex';

/**
 * What a store's similar lists were computed from (a fingerprint of the serving vectors: ids,
 * vectors, visibility): learn-events skips the computation while it is unchanged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('similar_state', (t) => {
    t.text('tenant_id').primary().references('tenants.id').onDelete('CASCADE');
    t.text('fingerprint').notNullable();
    t.integer('listed').notNullable();
    t.timestamp('computed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('similar_state');
}
