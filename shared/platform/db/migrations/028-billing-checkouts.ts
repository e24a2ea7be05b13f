import type { Knex } from 'knex';

/**
 * The checkouts the service opened at the payment provider, so that when one completes the
 * store's others are closed there too (a stale link is never paid): `open` -> `completed`, or
 * `superseded` (another completed first: expired at the provider, `closed_at` once it answered),
 * `expired` (the provider expired it itself). `replaced`: was completed, then a superseded one was
 * paid anyway; the store follows that later payment and this one's subscription is canceled at the
 * provider (`closed_at` once done). `superseded_by` names the provider checkout that closed it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('billing_checkouts', (t) => {
    t.text('id').primary();
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('provider_checkout_id').notNullable();
    t.text('plan_code').notNullable();
    t.text('interval').notNullable();
    t.text('status').notNullable().defaultTo('open');
    t.text('superseded_by');
    t.text('provider_subscription_id');
    // Where the service was reached when the checkout opened (the mock provider posts its events there).
    t.text('base_url').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('closed_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'provider_checkout_id']);
    t.index(['tenant_id', 'status']);
  });
  await knex.raw(
    `ALTER TABLE billing_checkouts ADD CONSTRAINT billing_checkouts_status CHECK (status IN ('open','completed','superseded','expired','replaced'))`,
  );
  // The few rows with provider work left (the sweep reads only these).
  await knex.raw(`CREATE INDEX billing_checkouts_to_close ON billing_checkouts (updated_at) WHERE status IN ('superseded','replaced') AND closed_at IS NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('billing_checkouts');
}
