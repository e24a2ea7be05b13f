import type { Knex } from 'knex';

/**
 * Product types learned from each store's own titles (shared/text/product-head.ts): the head
 * noun forms of every search document, and per vocabulary word how many products it is the head of.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE search_docs ADD COLUMN IF NOT EXISTS heads text[] NOT NULL DEFAULT '{}'`);
  await knex.raw('ALTER TABLE search_vocab ADD COLUMN IF NOT EXISTS heads integer NOT NULL DEFAULT 0');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE search_vocab DROP COLUMN IF EXISTS heads');
  await knex.raw('ALTER TABLE search_docs DROP COLUMN IF EXISTS heads');
}
