import type { Knex } from 'knex';

/**
 * Catalog translation: one item per product, field, field key and target locale; the glossary;
 * per-locale settings (watch, auto-approve); backfill run accounting; monthly usage and cost.
 * Also the per-language name terms of search documents (a query's own language weighted first).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('translation_items', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('id').notNullable();
    t.text('product_id').notNullable();
    t.text('field').notNullable();
    t.text('field_key').notNullable().defaultTo('');
    t.text('source_locale').notNullable();
    t.text('target_locale').notNullable();
    t.text('source_text').notNullable();
    t.text('source_hash').notNullable();
    t.text('translated_text');
    t.boolean('ai_translated').notNullable().defaultTo(false);
    t.text('status').notNullable().defaultTo('pending');
    // The status an item had when its source changed: its old text stays served if that status was.
    t.text('stale_from');
    // A person wrote the text: the machine never overwrites it (it can still go stale).
    t.boolean('human_edited').notNullable().defaultTo(false);
    t.double('quality_score');
    t.jsonb('quality_notes').notNullable().defaultTo('{}');
    t.text('provider');
    t.bigInteger('cost_micros').notNullable().defaultTo(0);
    // Bumped by every write: a pipeline run writes only the version it collected.
    t.integer('version').notNullable().defaultTo(1);
    // Position in the approved feed, assigned under a per-tenant lock (see items.repo.ts).
    t.bigInteger('feed_seq');
    t.timestamp('approved_at', { useTz: true });
    t.timestamp('written_back_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'id']);
    t.unique(['tenant_id', 'product_id', 'field', 'field_key', 'target_locale']);
    t.index(['tenant_id', 'status', 'product_id', 'id']);
  });
  await knex.raw(
    `ALTER TABLE translation_items ADD CONSTRAINT translation_items_field CHECK (field IN ('name','description','category','attribute_name','attribute_value'))`,
  );
  await knex.raw(
    `ALTER TABLE translation_items ADD CONSTRAINT translation_items_status CHECK (status IN ('pending','machine','review','approved','rejected','human_edited','stale'))`,
  );
  await knex.raw(`CREATE INDEX translation_items_feed ON translation_items (tenant_id, target_locale, feed_seq) WHERE feed_seq IS NOT NULL`);
  await knex.raw('CREATE SEQUENCE translation_feed_seq');

  await knex.schema.createTable('translation_glossary', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('id').notNullable();
    t.text('source_locale').notNullable();
    t.text('target_locale').notNullable();
    t.text('source_term').notNullable();
    t.text('target_term');
    t.boolean('do_not_translate').notNullable().defaultTo(false);
    t.boolean('case_sensitive').notNullable().defaultTo(false);
    t.text('note');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'id']);
    t.unique(['tenant_id', 'source_locale', 'target_locale', 'source_term']);
  });

  await knex.schema.createTable('translation_settings', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('target_locale').notNullable();
    t.boolean('watch_enabled').notNullable().defaultTo(false);
    t.boolean('auto_approve').notNullable().defaultTo(false);
    t.double('auto_approve_min_score').notNullable().defaultTo(0.9);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'target_locale']);
  });

  // One row per backfill job: chunks handed out and finished, so the last chunk closes the job row.
  await knex.schema.createTable('translation_runs', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('job_id').notNullable();
    t.integer('total_chunks');
    t.specificType('done_chunks', 'integer[]').notNullable().defaultTo('{}');
    t.integer('fields').notNullable().defaultTo(0);
    t.jsonb('counts').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant_id', 'job_id']);
  });

  // translated_product: a product counts once per month (billing reads translatedProducts()).
  await knex.schema.createTable('translation_usage_products', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('month').notNullable();
    t.text('product_id').notNullable();
    t.primary(['tenant_id', 'month', 'product_id']);
  });
  await knex.schema.createTable('translation_usage_costs', (t) => {
    t.text('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.text('month').notNullable();
    t.text('target_locale').notNullable();
    t.bigInteger('cost_micros').notNullable().defaultTo(0);
    t.bigInteger('input_tokens').notNullable().defaultTo(0);
    t.bigInteger('output_tokens').notNullable().defaultTo(0);
    t.integer('calls').notNullable().defaultTo(0);
    t.primary(['tenant_id', 'month', 'target_locale']);
  });

  // `<lang>:<term>` of each name language: a match in the query's own language ranks first.
  await knex.raw(`ALTER TABLE search_docs ADD COLUMN lang_terms text[] NOT NULL DEFAULT '{}'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE search_docs DROP COLUMN IF EXISTS lang_terms');
  for (const table of [
    'translation_usage_costs',
    'translation_usage_products',
    'translation_runs',
    'translation_settings',
    'translation_glossary',
    'translation_items',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.raw('DROP SEQUENCE IF EXISTS translation_feed_seq');
}
