import type { Knex } from 'knex';

/** Synonym rules (tenant and global), mined suggestions, and shopper events. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('synonyms', (t) => {
    t.text('id').primary();
    // NULL tenant_id: a platform (global) rule managed by the operator CLI.
    t.text('tenant_id').references('tenants.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.specificType('terms', 'text[]').notNullable().defaultTo('{}');
    t.text('input');
    t.specificType('outputs', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('conditions');
    t.text('locale');
    t.text('set_key').notNullable().defaultTo('default');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('source').notNullable().defaultTo('manual');
    // Normalized identity of the rule (kind + sorted normalized terms, or input => outputs) for duplicate detection.
    t.text('fingerprint').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id', 'set_key']);
  });
  await knex.raw(`ALTER TABLE synonyms ADD CONSTRAINT synonyms_kind CHECK (kind IN ('equivalent','one_way'))`);
  await knex.raw(`ALTER TABLE synonyms ADD CONSTRAINT synonyms_source CHECK (source IN ('manual','import','suggested','global_copy'))`);
  await knex.raw(`CREATE UNIQUE INDEX synonyms_unique ON synonyms (coalesce(tenant_id, ''), set_key, fingerprint)`);

  await knex.schema.createTable('synonym_suggestions', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.specificType('terms', 'text[]').notNullable().defaultTo('{}');
    t.text('input');
    t.specificType('outputs', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('evidence').notNullable().defaultTo('{}');
    t.double('score').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('fingerprint').notNullable();
    t.text('synonym_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('decided_at', { useTz: true });
    t.unique(['tenant_id', 'fingerprint']);
    t.index(['tenant_id', 'status', 'created_at']);
  });

  await knex.schema.createTable('events', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('client_event_id');
    t.text('type').notNullable();
    t.text('session').notNullable();
    t.text('search_id');
    t.text('product_id');
    t.integer('position');
    t.integer('quantity');
    t.double('value');
    t.text('currency');
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id', 'occurred_at']);
    t.index(['tenant_id', 'session']);
  });
  await knex.raw(`CREATE UNIQUE INDEX events_client_dedupe ON events (tenant_id, client_event_id) WHERE client_event_id IS NOT NULL`);
  await knex.raw(`CREATE INDEX search_log_session ON search_log (tenant_id, session, created_at) WHERE session IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS search_log_session');
  for (const table of ['events', 'synonym_suggestions', 'synonyms']) await knex.schema.dropTableIfExists(table);
}
