import type { Knex } from 'knex';

/**
 * Brand words learned from each store's own titles: per vocabulary word, how many product names
 * open with it (Vocabulary.isOpener: "Crocs ..." names, not "... for Crocs").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE search_vocab ADD COLUMN IF NOT EXISTS openings integer NOT NULL DEFAULT 0');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE search_vocab DROP COLUMN IF EXISTS openings');
}
