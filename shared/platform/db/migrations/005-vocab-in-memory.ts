import type { Knex } from 'knex';

/**
 * Typo candidates and suggestions are now matched in memory in the API process
 * (shared/search/typo-index.ts, suggest-dictionary.ts), so the trigram indexes on the
 * vocabulary and the suggestion dictionary only cost writes on every vocabulary refresh.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS search_vocab_trgm');
  await knex.raw('DROP INDEX IF EXISTS suggest_terms_trgm');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS search_vocab_trgm ON search_vocab USING gin (term gin_trgm_ops)');
  await knex.raw('CREATE INDEX IF NOT EXISTS suggest_terms_trgm ON suggest_terms USING gin (norm gin_trgm_ops)');
}
