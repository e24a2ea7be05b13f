import type { Knex } from 'knex';

/** The search log (written in batches off the request path) and the suggestion dictionary. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('search_log', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('session');
    t.text('query').notNullable();
    t.text('normalized').notNullable();
    t.text('lang').notNullable();
    t.jsonb('filters').notNullable().defaultTo('{}');
    t.text('sort');
    t.integer('total').notNullable();
    t.integer('page').notNullable();
    t.double('took_ms').notNullable();
    t.boolean('zero_result').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id', 'created_at']);
  });
  await knex.schema.createTable('suggest_terms', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('norm').notNullable();
    t.text('display').notNullable();
    t.text('target');
    t.double('weight').notNullable();
    t.primary(['tenant_id', 'kind', 'norm']);
  });
  await knex.raw('CREATE INDEX suggest_terms_prefix ON suggest_terms (tenant_id, norm text_pattern_ops)');
  await knex.raw('CREATE INDEX suggest_terms_trgm ON suggest_terms USING gin (norm gin_trgm_ops)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('suggest_terms');
  await knex.schema.dropTableIfExists('search_log');
}
