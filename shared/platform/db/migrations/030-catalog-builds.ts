import type { Knex } from 'knex';

/**
 * Who began a tenant's building generation (the reindex's jobs row) and when: a canceled
 * reindex drops only the generation it began, and the maintenance sweep finds generations left
 * building by a job that has finished (sweep-builds). Generations already building count from now.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE search_generations ADD COLUMN IF NOT EXISTS building_job text, ADD COLUMN IF NOT EXISTS building_since timestamptz');
  await knex.raw('UPDATE search_generations SET building_since = now() WHERE building IS NOT NULL AND building_since IS NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE search_generations DROP COLUMN IF EXISTS building_job, DROP COLUMN IF EXISTS building_since');
}
