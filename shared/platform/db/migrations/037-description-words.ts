import type { Knex } from 'knex';

/**
 * The store's description words as a last-resort typo correction source: per word that only
 * descriptions have (no name, brand, category or attribute), how many products' descriptions have
 * it. Such a row has freq 0 (the word counts in no other field); see VocabularyBuilder.describedTerms.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE search_vocab ADD COLUMN IF NOT EXISTS described integer NOT NULL DEFAULT 0');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DELETE FROM search_vocab WHERE described > 0');
  await knex.raw('ALTER TABLE search_vocab DROP COLUMN IF EXISTS described');
}
