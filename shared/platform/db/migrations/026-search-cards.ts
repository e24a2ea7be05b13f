import type { Knex } from 'knex';

/**
 * A search document's display columns (its card and description) in a table of their own, read
 * by key for a page's rows only; `category_paths`, never read, goes; the name's word count is kept. The match phase of a search
 * reads every matching row of `search_docs`: at 1.5 KB a row (a third of it card, description
 * and paths) a 10k-row match read 5,300 heap pages. Slimmer rows, fewer pages: 12-14 % less
 * Postgres time over the bench's query mix (README, Performance). Dropped columns keep their
 * bytes in existing rows until they are written again: a reindex (or VACUUM FULL) gives the
 * space back.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE IF NOT EXISTS search_cards (
    tenant_id text NOT NULL,
    generation integer NOT NULL,
    product_id text NOT NULL,
    card jsonb NOT NULL,
    description jsonb,
    PRIMARY KEY (tenant_id, generation, product_id))`);
  await knex.raw(`INSERT INTO search_cards (tenant_id, generation, product_id, card, description)
                  SELECT tenant_id, generation, product_id, card, description FROM search_docs ON CONFLICT DO NOTHING`);
  await knex.raw('ALTER TABLE search_docs DROP COLUMN IF EXISTS card, DROP COLUMN IF EXISTS description, DROP COLUMN IF EXISTS category_paths');
  // The name's word count, read per matching row by the name-length factor, kept instead of counted there; writing it
  // rewrites every row, without the dropped columns' bytes (VACUUM gives the old versions' space back).
  await knex.raw('ALTER TABLE search_docs ADD COLUMN IF NOT EXISTS name_words integer NOT NULL DEFAULT 1');
  await knex.raw(`UPDATE search_docs SET name_words = length(name_norm) - length(replace(name_norm, ' ', '')) + 1`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE search_docs ADD COLUMN IF NOT EXISTS card jsonb, ADD COLUMN IF NOT EXISTS description jsonb,
                  ADD COLUMN IF NOT EXISTS category_paths jsonb NOT NULL DEFAULT '[]'`);
  await knex.raw(`UPDATE search_docs d SET card = c.card, description = c.description FROM search_cards c
                   WHERE c.tenant_id = d.tenant_id AND c.generation = d.generation AND c.product_id = d.product_id`);
  await knex.raw(`UPDATE search_docs SET card = '{}' WHERE card IS NULL`);
  await knex.raw('ALTER TABLE search_docs ALTER COLUMN card SET NOT NULL');
  await knex.raw('DROP TABLE IF EXISTS search_cards');
  await knex.raw('ALTER TABLE search_docs DROP COLUMN IF EXISTS name_words');
}
