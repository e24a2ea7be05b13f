import type { Knex } from 'knex';

/**
 * The pending notification deliveries, for requeue-deliveries (pipelines/notifications): it looks
 * for deliveries whose queued attempt Redis lost. The delivery log only grows; this index holds
 * the few rows still pending, so the sweep never reads the log.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON webhook_deliveries (created_at) WHERE status = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_pending');
}
