import type { Knex } from 'knex';

/**
 * Operations: outbound notification receivers and their delivery log, export archives with
 * their expiring links, and the audit record a deleted store leaves (no tenant_id column: it must
 * outlive the store, and nothing of the store's data is in it but its id and counts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_receivers', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.specificType('kinds', 'text[]').notNullable();
    t.text('description').notNullable().defaultTo('');
    // Sealed (AES-GCM, SECRET_ENCRYPTION_KEY): signing needs the secret itself, so it cannot be a hash.
    t.jsonb('secret').notNullable();
    t.text('secret_last4').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    // Notifications in a row that used up every attempt; reset by a delivery that succeeds.
    t.integer('failure_streak').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id', 'created_at']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    // Also the webhook-id header: the same on every attempt, so receivers can drop duplicates.
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('receiver_id').notNullable().references('webhook_receivers.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.jsonb('payload').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('last_status_code');
    t.text('last_error');
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.index(['receiver_id', 'created_at']);
    t.index(['tenant_id', 'created_at']);
  });
  await knex.schema.createTable('data_exports', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('job_id').notNullable();
    t.text('kind').notNullable();
    t.text('file').notNullable();
    t.bigInteger('bytes').notNullable();
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('tenant_deletions', (t) => {
    t.text('id').primary();
    t.text('deleted_tenant').notNullable();
    t.text('job_id').notNullable();
    t.text('requested_by').notNullable();
    t.jsonb('rows_deleted').notNullable().defaultTo('{}');
    t.jsonb('other_deleted').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tenant_deletions');
  await knex.schema.dropTable('data_exports');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_receivers');
}
