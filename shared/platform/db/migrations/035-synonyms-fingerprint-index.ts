import type { Knex } from 'knex';

/**
 * A set holds each rule once: the unique index now keys on md5(fingerprint), not the fingerprint.
 * A rule within the documented bounds (50 terms of 200 characters) has a fingerprint of up to
 * about 10,000 characters (20 kB in Arabic), and a btree entry holds at most 2,704 bytes: a rule
 * of 14 random 200-letter terms already failed the insert with 54000 (500, and a whole import
 * lost with it). The digest is 32 characters whatever the rule.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE UNIQUE INDEX synonyms_unique_digest ON synonyms (coalesce(tenant_id, ''), set_key, md5(fingerprint))`);
  await knex.raw('DROP INDEX synonyms_unique');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`CREATE UNIQUE INDEX synonyms_unique ON synonyms (coalesce(tenant_id, ''), set_key, fingerprint)`);
  await knex.raw('DROP INDEX synonyms_unique_digest');
}
