import type { Knex } from 'knex';

/**
 * A dashboard session records the credential that minted it (a key, or another session), so
 * revoking that credential ends the sessions it minted and theirs in turn. Sessions made by the
 * CLI have neither. Existing rows are linked from `created_by` ("secret:key_…", "session:ses_…").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dashboard_sessions', (t) => {
    t.text('parent_key_id').references('api_keys.id').onDelete('CASCADE');
    t.text('parent_session_id').references('dashboard_sessions.id').onDelete('CASCADE');
    t.index(['parent_key_id']);
    t.index(['parent_session_id']);
  });
  await knex.raw(`UPDATE dashboard_sessions s SET parent_key_id = k.id FROM api_keys k WHERE s.created_by IN ('secret:' || k.id, 'public:' || k.id)`);
  await knex.raw(`UPDATE dashboard_sessions s SET parent_session_id = p.id FROM dashboard_sessions p WHERE s.created_by = 'session:' || p.id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dashboard_sessions', (t) => {
    t.dropColumn('parent_session_id');
    t.dropColumn('parent_key_id');
  });
}
