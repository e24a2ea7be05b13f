import type { Knex } from 'knex';

/**
 * Spelling variants learned from each store's own titles: per vocabulary word, the other writing
 * of it that the store also uses in the same company of words ("duffle" / "duffel",
 * "colour" / "color"; shared/search/spelling-variants.ts), or null.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE search_vocab ADD COLUMN IF NOT EXISTS variant text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE search_vocab DROP COLUMN IF EXISTS variant');
}
