import type { Knex } from 'knex';
import type { Config } from '../platform/config.js';
import { deleteBatch, PURGE_BATCH } from '../platform/db/batch-delete.js';
import { MAX_MINING_DAYS } from '../synonyms/index.js';
import { WINDOW_DAYS } from '../recommend/index.js';
import { ANSWERS_KEPT_DAYS } from '../translation/index.js';
import { purgeIdleSyncs, SYNC_EXPIRED_KEPT_DAYS } from '../catalog/index.js';

/** How long an expired or revoked dashboard session row stays (it answers `session_expired` meanwhile, not `key_invalid`). */
export const SESSION_KEPT_DAYS = 7;
/** The longest window a reader of the search log and events reads: mining (`days` up to 90), click learning and recommendations (60), review_top_n and popular queries (30). */
export const ANALYTICS_READ_DAYS = Math.max(MAX_MINING_DAYS, WINDOW_DAYS, 30);

/** One table's rule: which rows are past retention. `perTenant`: walked store by store on its (tenant_id, time) index. */
export interface WhereRule {
  table: string;
  perTenant: boolean;
  where: string;
  bindings: Knex.RawBinding[];
  /** Rows that become deletable as others go (a parent session after its children): batches run until one deletes nothing. */
  untilNone?: boolean;
}

/** A table whose area purges it itself (in batches of `batch`); returns rows deleted. */
export interface PurgeRule {
  table: string;
  purge(db: Knex, batch: number, signal?: AbortSignal): Promise<number>;
}

export type RetentionRule = WhereRule | PurgeRule;

/**
 * What purge-expired deletes, in this order (events before the search log their experiment check
 * reads; child sessions before their parents). Never: a live Idempotency-Key claim, a session not
 * yet expired, a queued or running job, a pending delivery, the searches of an experiment that
 * still exists (its results read them all) or the events attributed to them, a translation answer
 * whose cost is not counted yet (the purge-expired stage counts it first, once past its job's retries),
 * the seen set of a full sync not idle past SYNC_IDLE_DAYS. Kept for ever (money and audit): billing_*,
 * usage_*, translation_usage_*, tenant_deletions; and data_exports, whose rows answer 410
 * link_expired once the archive is gone. Tables of derived data are replaced, not appended to.
 */
export function retentionRules(config: Config): RetentionRule[] {
  const days = (n: number) => `now() - make_interval(days => ${Math.ceil(n)})`;
  const analytics = days(Math.max(config.retention.analyticsDays, ANALYTICS_READ_DAYS));
  // An export job's result carries its download link: kept at least as long as the link lives.
  const jobs = days(Math.max(config.retention.jobDays, config.ops.exportLinkTtlHours / 24));
  const deliveries = days(config.retention.deliveryDays);
  const kept = (alias: string) => `EXISTS (SELECT 1 FROM experiments x WHERE x.id = ${alias}.experiment_id AND x.tenant_id = ${alias}.tenant_id)`;
  return [
    {
      table: 'events',
      perTenant: true,
      // A top-level NOT EXISTS (an anti-join, one index probe per row); a null search_id matches no search.
      where: `occurred_at < ${analytics} AND NOT EXISTS (
                SELECT 1 FROM search_log s WHERE s.id = events.search_id AND s.tenant_id = events.tenant_id AND ${kept('s')})`,
      bindings: [],
    },
    { table: 'search_log', perTenant: true, where: `created_at < ${analytics} AND NOT ${kept('search_log')}`, bindings: [] },
    {
      table: 'jobs',
      perTenant: true,
      where: `status IN ('succeeded', 'failed', 'canceled') AND created_at < ${jobs} AND coalesce(finished_at, created_at) < ${jobs}`,
      bindings: [],
    },
    {
      table: 'webhook_deliveries',
      perTenant: true,
      where: `status <> 'pending' AND created_at < ${deliveries} AND coalesce(finished_at, created_at) < ${deliveries}`,
      bindings: [],
    },
    {
      // Leaves first: deleting a parent would cascade to its children, so a parent goes once they have.
      table: 'dashboard_sessions',
      perTenant: false,
      where: `expires_at < ${days(SESSION_KEPT_DAYS)} AND NOT EXISTS (SELECT 1 FROM dashboard_sessions c WHERE c.parent_session_id = dashboard_sessions.id)`,
      bindings: [],
      untilNone: true,
    },
    // An answer a failed job left uncounted is counted first (recordLeftCosts, UNCOUNTED_KEPT_DAYS), then goes here.
    { table: 'translation_answers', perTenant: false, where: `cost_recorded AND created_at < ${days(ANSWERS_KEPT_DAYS)}`, bindings: [] },
    // A full sync idle past SYNC_IDLE_DAYS expires and its seen set goes; its row answers `sync_expired` a while longer.
    { table: 'product_sync_items', purge: (db, batch, signal) => purgeIdleSyncs(db, config.retention.syncIdleDays, batch, signal) },
    {
      table: 'product_syncs',
      perTenant: false,
      // Never one with items left: deleting it would cascade to them in one unbounded statement.
      where: `(expired_at < ${days(SYNC_EXPIRED_KEPT_DAYS)} OR completed_at < ${days(SYNC_EXPIRED_KEPT_DAYS)}) AND NOT EXISTS (
                SELECT 1 FROM product_sync_items i WHERE i.tenant_id = product_syncs.tenant_id AND i.sync_id = product_syncs.sync_id)`,
      bindings: [],
    },
  ];
}

export interface PurgeOptions {
  batch?: number;
  signal?: AbortSignal;
  /** Called after each table with the share of the work done (0..1). */
  progress?: (fraction: number) => Promise<void>;
}

/**
 * Deletes the rows past retention (retentionRules, and the Idempotency-Key rule of `idempotency`)
 * in batches of `batch`, each its own statement, store by store where the table has a per-store
 * time index. Returns rows deleted per table. Idempotent: a second run deletes nothing more.
 */
export async function purgeExpired(
  db: Knex,
  rules: RetentionRule[],
  idempotency: { purgeExpired(limit: number): Promise<number> },
  opts: PurgeOptions = {},
): Promise<Record<string, number>> {
  const batch = opts.batch ?? PURGE_BATCH;
  const deleted: Record<string, number> = { idempotency_keys: await drain(() => idempotency.purgeExpired(batch), batch, opts.signal) };
  const tenants = (await db('tenants').orderBy('id').pluck('id')) as string[];
  for (const [i, rule] of rules.entries()) {
    if ('purge' in rule) {
      deleted[rule.table] = await rule.purge(db, batch, opts.signal);
      await opts.progress?.((i + 1) / rules.length);
      continue;
    }
    deleted[rule.table] = 0;
    for (const tenantId of rule.perTenant ? tenants : [null]) {
      const where = tenantId === null ? rule.where : `tenant_id = ? AND ${rule.where}`;
      const bindings = tenantId === null ? rule.bindings : [tenantId, ...rule.bindings];
      const until = rule.untilNone ? 1 : batch;
      deleted[rule.table] += await drain(() => deleteBatch(db, rule.table, where, bindings, batch), until, opts.signal);
    }
    await opts.progress?.((i + 1) / rules.length);
  }
  return deleted;
}

/** Runs `one` until a batch deletes fewer than `full` rows; the total. */
async function drain(one: () => Promise<number>, full: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    signal?.throwIfAborted();
    const n = await one();
    total += n;
    if (n < full) return total;
  }
}
