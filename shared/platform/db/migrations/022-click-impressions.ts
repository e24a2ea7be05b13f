import type { Knex } from 'knex';

/**
 * Click learning sees what shoppers were shown: a search's page of product ids is logged
 * (`shown`), and each click statistic counts the product's examinations (the position-bias
 * model's expected looks at it over the searches that showed it), so a product shown often and
 * passed over is known as such.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('search_log', (t) => {
    t.specificType('shown', 'text[]');
  });
  await knex.schema.alterTable('click_stats', (t) => {
    t.double('examinations').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('click_stats', (t) => {
    t.dropColumn('examinations');
  });
  await knex.schema.alterTable('search_log', (t) => {
    t.dropColumn('shown');
  });
}
