import type { Knex } from 'knex';

/**
 * Search speed (issue 20): the first page of the store browsed without words (stock, then
 * popularity: its counts come from the held store counts) read in index order, 20 rows, instead of
 * a top-N sort of every visible product (about 50 ms for 100k).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS search_docs_browse ON search_docs (tenant_id, generation, in_stock DESC, popularity DESC, product_id) WHERE visible',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS search_docs_browse');
}
