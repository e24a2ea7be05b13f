import type { Knex } from 'knex';

/**
 * Vectors (system of record for the built-in vector store), the per-store catalog embedder's
 * trained models, and what recommendations and click learning compute from events.
 */
export async function up(knex: Knex): Promise<void> {
  // One trained catalog embedder per store and version (features, weights and projection packed as bytes).
  await knex.schema.createTable('embedder_models', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.text('embedder_id').notNullable();
    t.integer('dims').notNullable();
    t.integer('products').notNullable();
    t.binary('model').notNullable();
    t.timestamp('trained_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'version']);
  });
  // Serving and building vector generation per store, with the embedder each was made with.
  await knex.schema.createTable('vector_generations', (t) => {
    t.text('tenant_id').primary().references('tenants.id').onDelete('CASCADE');
    t.integer('active');
    t.text('active_embedder');
    t.integer('building');
    t.text('building_embedder');
    t.integer('dims');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('product_vectors', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.integer('generation').notNullable();
    t.text('product_id').notNullable();
    t.text('embedder_id').notNullable();
    t.integer('dims').notNullable();
    t.binary('vector').notNullable();
    // What filters need before scoring: category ids, brand, price, stock, visibility.
    t.jsonb('payload').notNullable();
    t.bigInteger('source_version').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'generation', 'product_id']);
  });
  // Co-views within sessions, normalized and time-decayed (also_viewed).
  await knex.schema.createTable('co_views', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('product_id').notNullable();
    t.text('other_id').notNullable();
    t.double('score').notNullable();
    t.primary(['tenant_id', 'product_id', 'other_id']);
  });
  // Time-decayed interest per product (trending), with its category ids for per-category lists.
  await knex.schema.createTable('product_trends', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('product_id').notNullable();
    t.double('score').notNullable();
    t.specificType('category_ids', 'text[]').notNullable().defaultTo('{}');
    t.primary(['tenant_id', 'product_id']);
  });
  // Position-bias-corrected click attractiveness per normalized query and product.
  await knex.schema.createTable('click_stats', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('query').notNullable();
    t.text('product_id').notNullable();
    t.integer('clicks').notNullable();
    t.integer('searches').notNullable();
    t.double('attractiveness').notNullable();
    t.primary(['tenant_id', 'query', 'product_id']);
  });
  await knex.raw(`CREATE INDEX events_views ON events (tenant_id, type, occurred_at) WHERE type <> 'search_click'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS events_views');
  for (const table of ['click_stats', 'product_trends', 'co_views', 'product_vectors', 'vector_generations', 'embedder_models'])
    await knex.schema.dropTableIfExists(table);
}
