import type { Knex } from 'knex';

/**
 * Translation: the provider's answers, kept per translate-fields job (run, chunk) and batch content
 * as soon as they arrive, so a retried job reuses an answer it paid for instead of asking (and paying)
 * again; `cost_recorded` flips in the transaction that adds the answer's cost to the month's usage, so
 * that cost is counted exactly once. Rows go when their chunk is done (or after a week).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('translation_answers', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('run_id').notNullable();
    t.integer('chunk').notNullable();
    t.text('batch_key').notNullable();
    t.text('target_locale').notNullable();
    t.jsonb('texts').notNullable();
    t.bigInteger('input_tokens').notNullable();
    t.bigInteger('output_tokens').notNullable();
    t.bigInteger('cost_micros').notNullable();
    t.boolean('cost_recorded').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'run_id', 'chunk', 'batch_key']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('translation_answers');
}
