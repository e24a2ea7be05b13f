import type { Knex } from 'knex';

/** Products (system of record), full-sync bookkeeping, attribute mapping, and the Postgres search engine's tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gin');
  await knex.schema.createTable('products', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('id').notNullable();
    t.jsonb('data').notNullable();
    t.text('content_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('indexed_at', { useTz: true });
    t.primary(['tenant_id', 'id']);
  });
  // Products whose latest version is not in the engine yet (the sweeper's work list).
  await knex.raw(`CREATE INDEX products_unindexed ON products (tenant_id, updated_at) WHERE indexed_at IS NULL OR indexed_at < updated_at`);

  await knex.schema.createTable('product_syncs', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('sync_id').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.integer('batches').notNullable().defaultTo(0);
    t.primary(['tenant_id', 'sync_id']);
  });
  await knex.schema.createTable('product_sync_items', (t) => {
    t.text('tenant_id').notNullable();
    t.text('sync_id').notNullable();
    t.text('product_id').notNullable();
    t.primary(['tenant_id', 'sync_id', 'product_id']);
    t.foreign(['tenant_id', 'sync_id']).references(['tenant_id', 'sync_id']).inTable('product_syncs').onDelete('CASCADE');
  });

  await knex.schema.createTable('attribute_mappings', (t) => {
    t.text('tenant_id').primary().references('tenants.id').onDelete('CASCADE');
    t.jsonb('items').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('search_generations', (t) => {
    t.text('tenant_id').primary().references('tenants.id').onDelete('CASCADE');
    t.integer('active').notNullable();
    t.integer('building');
  });
  await knex.schema.createTable('search_docs', (t) => {
    t.text('tenant_id').notNullable();
    t.integer('generation').notNullable();
    t.text('product_id').notNullable();
    t.text('name_norm').notNullable();
    t.text('brand');
    t.text('brand_norm');
    t.specificType('codes', 'text[]').notNullable();
    t.specificType('category_ids', 'text[]').notNullable();
    t.jsonb('category_paths').notNullable();
    t.jsonb('facets').notNullable();
    t.double('price').notNullable();
    t.boolean('in_stock').notNullable();
    t.boolean('visible').notNullable();
    t.double('popularity').notNullable().defaultTo(0);
    t.double('margin');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.bigInteger('source_version').notNullable();
    t.jsonb('card').notNullable();
    t.jsonb('description');
    t.specificType('tsv', 'tsvector').notNullable();
    t.primary(['tenant_id', 'generation', 'product_id']);
  });
  // Tenant and generation inside the text index: one tenant's query never walks another's postings.
  await knex.raw('CREATE INDEX search_docs_tsv ON search_docs USING gin (tenant_id, generation, tsv)');
  await knex.raw('CREATE INDEX search_docs_categories ON search_docs USING gin (category_ids)');
  await knex.raw('CREATE INDEX search_docs_price ON search_docs (tenant_id, generation, price)');

  // Category labels per tenant, so facet buckets get their labels without reading every document's paths.
  await knex.schema.createTable('search_categories', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('id').notNullable();
    t.jsonb('label').notNullable();
    t.primary(['tenant_id', 'id']);
  });

  await knex.schema.createTable('search_vocab', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('term').notNullable();
    t.integer('freq').notNullable();
    t.primary(['tenant_id', 'term']);
  });
  await knex.raw('CREATE INDEX search_vocab_trgm ON search_vocab USING gin (term gin_trgm_ops)');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'search_vocab',
    'search_categories',
    'search_docs',
    'search_generations',
    'attribute_mappings',
    'product_sync_items',
    'product_syncs',
    'products',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
