import type { Knex } from 'knex';

/**
 * Billing and usage: one subscription per tenant (our status beside the provider's raw one),
 * provider webhook events (unique per provider and event id), add-on purchases, invoices the
 * mock provider issues, daily usage rolled up from Redis, and the 80/100 % notices sent.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('billing_subscriptions', (t) => {
    t.text('tenant_id').primary().references('tenants.id').onDelete('CASCADE');
    t.text('plan_code').notNullable();
    t.text('interval').notNullable().defaultTo('month');
    t.text('status').notNullable();
    t.text('provider').notNullable();
    t.text('provider_status');
    t.text('provider_customer_id');
    t.text('provider_subscription_id');
    t.timestamp('trial_ends_at', { useTz: true });
    t.timestamp('current_period_start', { useTz: true });
    t.timestamp('current_period_end', { useTz: true });
    t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
    t.text('cancel_reason');
    t.timestamp('canceled_at', { useTz: true });
    t.timestamp('past_due_since', { useTz: true });
    // A downgrade waiting for the period end.
    t.text('pending_plan_code');
    t.text('pending_interval');
    t.bigInteger('credit_minor').notNullable().defaultTo(0);
    // The provider time of the newest event applied: older events never move the row back.
    t.timestamp('state_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'provider_subscription_id']);
  });
  await knex.raw(
    `ALTER TABLE billing_subscriptions ADD CONSTRAINT billing_subscriptions_status CHECK (status IN ('trialing','active','past_due','paused','canceled','incomplete'))`,
  );
  await knex.schema.createTable('billing_events', (t) => {
    t.text('provider').notNullable();
    t.text('event_id').notNullable();
    t.text('type').notNullable();
    t.text('tenant_id');
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.jsonb('payload').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('applied_at', { useTz: true });
    t.text('outcome');
    t.primary(['provider', 'event_id']);
  });
  await knex.raw('CREATE INDEX billing_events_unapplied ON billing_events (received_at) WHERE applied_at IS NULL');
  await knex.schema.createTable('billing_addon_purchases', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('code').notNullable();
    t.integer('bundles').notNullable();
    t.integer('units').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.text('currency').notNullable();
    t.timestamp('period_end', { useTz: true });
    // The provider's charge (payment intent, transaction, mock charge): one purchase per charge.
    t.text('provider_ref').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id', 'created_at']);
  });
  // The mock provider's own records (checkout sessions, invoices): what Stripe or Paddle keep on their side.
  await knex.schema.createTable('billing_mock_objects', (t) => {
    t.text('id').primary();
    t.text('kind').notNullable();
    t.text('tenant_id').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id', 'kind', 'created_at']);
  });
  // Daily usage rolled up from Redis: value = base + seen (seen: the Redis counter last read;
  // base: what earlier Redis lives counted, kept when the counter restarts lower).
  await knex.schema.createTable('usage_daily', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.text('metric').notNullable();
    t.bigInteger('base').notNullable().defaultTo(0);
    t.bigInteger('seen').notNullable().defaultTo(0);
    // The Redis life `seen` was read in (a restarted, emptied Redis gets a new epoch).
    t.text('epoch');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'day', 'metric']);
  });
  await knex.schema.createTable('usage_notices', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('period').notNullable();
    t.text('metric').notNullable();
    t.text('notice').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'period', 'metric', 'notice']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['usage_notices', 'usage_daily', 'billing_mock_objects', 'billing_addon_purchases', 'billing_events', 'billing_subscriptions']) {
    await knex.schema.dropTableIfExists(table);
  }
}
