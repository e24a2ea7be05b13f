import type { Knex } from 'knex';

/**
 * Search speed (issue 20): an index for a brand filter applied with the match (a query whose words
 * became a brand filter, "coffee" or "samsung", once the store's brand counts are known reads the
 * brand's rows, not the whole store).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS search_docs_brand ON search_docs (tenant_id, generation, brand_norm)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS search_docs_brand');
}
