import type { Knex } from 'knex';

/**
 * Merchandising rules and A/B experiments; the search log learns which experiment variant
 * answered each search, and events get an index for attribution by search id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('merch_rules', (t) => {
    // Ids are per store, so an exported rule set imports into another store with its ids.
    t.text('id').notNullable();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.integer('priority').notNullable().defaultTo(0);
    // Patterns, filter context and the time window (see shared/merchandising/rule.schema.ts).
    t.jsonb('conditions').notNullable();
    // Redirect, banners, pins, hides, boosts, buries, filters to add.
    t.jsonb('consequences').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'id']);
    t.index(['tenant_id', 'created_at', 'id']);
  });
  await knex.schema.createTable('experiments', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('status').notNullable().defaultTo('draft');
    t.jsonb('variants').notNullable();
    t.text('primary_metric').notNullable().defaultTo('conversion_rate');
    t.integer('min_sample').notNullable().defaultTo(1000);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('stopped_at', { useTz: true });
    t.index(['tenant_id', 'created_at', 'id']);
  });
  await knex.raw(`ALTER TABLE experiments ADD CONSTRAINT experiments_status CHECK (status IN ('draft','running','stopped'))`);
  // At most one running experiment per store: a session then belongs to one variant at a time.
  await knex.raw(`CREATE UNIQUE INDEX experiments_one_running ON experiments (tenant_id) WHERE status = 'running'`);
  await knex.schema.alterTable('search_log', (t) => {
    t.text('experiment_id');
    t.text('variant');
  });
  await knex.raw(`CREATE INDEX search_log_experiment ON search_log (tenant_id, experiment_id, variant) WHERE experiment_id IS NOT NULL`);
  await knex.raw(`CREATE INDEX events_search_id ON events (tenant_id, search_id) WHERE search_id IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS events_search_id');
  await knex.raw('DROP INDEX IF EXISTS search_log_experiment');
  await knex.schema.alterTable('search_log', (t) => {
    t.dropColumn('experiment_id');
    t.dropColumn('variant');
  });
  await knex.schema.dropTableIfExists('experiments');
  await knex.schema.dropTableIfExists('merch_rules');
}
