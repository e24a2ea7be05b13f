import type { Knex } from 'knex';

/** Tenants, API keys, dashboard sessions, idempotency records and the shared jobs table. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tenants', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.specificType('locales', 'text[]').notNullable();
    t.text('default_locale').notNullable();
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('kind').notNullable();
    t.text('hash').notNullable().unique();
    t.text('prefix').notNullable();
    t.text('last4').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.specificType('allowed_origins', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.text('replaced_by');
    t.index(['tenant_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_kind CHECK (kind IN ('public','secret'))`);

  await knex.schema.createTable('dashboard_sessions', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('hash').notNullable().unique();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
  });

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable();
    t.integer('status_code');
    t.jsonb('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['tenant_id', 'key']);
    t.index(['expires_at']);
  });

  await knex.schema.createTable('jobs', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('status').notNullable().defaultTo('queued');
    t.double('progress').notNullable().defaultTo(0);
    t.jsonb('params').notNullable().defaultTo('{}');
    t.jsonb('result');
    t.text('error');
    t.text('dedupe_key');
    t.boolean('cancel_requested').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.index(['tenant_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE jobs ADD CONSTRAINT jobs_status CHECK (status IN ('queued','running','succeeded','failed','canceled'))`);
  await knex.raw(
    `ALTER TABLE jobs ADD CONSTRAINT jobs_kind CHECK (kind IN ('reindex','import','sync','translate_backfill','translate_writeback','export','data_export','data_delete','embed','synonym_mining'))`,
  );
  // At most one live job per dedupe key: a second reindex request joins the running one.
  await knex.raw(`CREATE UNIQUE INDEX jobs_live_dedupe ON jobs (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL AND status IN ('queued','running')`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['jobs', 'idempotency_keys', 'dashboard_sessions', 'api_keys', 'tenants']) {
    await knex.schema.dropTableIfExists(table);
  }
}
