import type { Knex } from 'knex';

export interface RolledCount {
  tenantId: string;
  day: string;
  metric: string;
  /** The Redis day counter as read now, and the Redis life it was read in. */
  value: number;
  epoch: string;
}

/** Daily usage rolled up from Redis, and the 80/100 % notices sent per metric per period. */
export function usageRepo(db: Knex) {
  return {
    /**
     * Runs `fn` (a roll-up: read Redis, then write what it read) alone: one at a time across every
     * worker, in a transaction holding an advisory lock. Two at once could write in the other order
     * than they read, and `rollup` would take the earlier, lower read for an older Redis snapshot
     * restored and count the difference twice.
     */
    async exclusive<T>(fn: (repo: { rollup(rows: RolledCount[]): Promise<void> }) => Promise<T>): Promise<T> {
      return db.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['usage-rollup']);
        return fn(usageRepo(trx));
      });
    },
    /**
     * Stores counters read from Redis; re-running with the same reads changes nothing. A counter
     * of a new Redis life (epoch) or one lower than last seen (Redis restored an older snapshot)
     * keeps what was counted before: `base` takes it and the new counter adds to it.
     */
    async rollup(rows: RolledCount[]): Promise<void> {
      if (!rows.length) return;
      await db.raw(
        `INSERT INTO usage_daily (tenant_id, day, metric, base, seen, epoch)
         SELECT r.t, r.d::date, r.m, 0, r.v, r.e FROM unnest(?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[]) AS r(t, d, m, v, e)
         WHERE EXISTS (SELECT 1 FROM tenants WHERE tenants.id = r.t)
         ON CONFLICT (tenant_id, day, metric) DO UPDATE SET
           base = usage_daily.base + CASE WHEN usage_daily.epoch IS DISTINCT FROM EXCLUDED.epoch THEN usage_daily.seen ELSE GREATEST(usage_daily.seen - EXCLUDED.seen, 0) END,
           seen = EXCLUDED.seen, epoch = EXCLUDED.epoch, updated_at = now()`,
        [rows.map((r) => r.tenantId), rows.map((r) => r.day), rows.map((r) => r.metric), rows.map((r) => r.value), rows.map((r) => r.epoch)],
      );
    },
    /** Per day and metric in [from, to) (dates `YYYY-MM-DD`). */
    async days(tenantId: string, from: string, to: string): Promise<Array<{ day: string; metric: string; value: number }>> {
      const rows = await db('usage_daily')
        .where({ tenant_id: tenantId })
        .andWhere('day', '>=', from)
        .andWhere('day', '<', to)
        .select(db.raw(`to_char(day, 'YYYY-MM-DD') as day`), 'metric', db.raw('(base + seen)::bigint as value'))
        .orderBy('day');
      return rows.map((r: { day: string; metric: string; value: string }) => ({ day: r.day, metric: r.metric, value: Number(r.value) }));
    },
    /** A metric's total this calendar month (UTC) as rolled up. */
    async monthTotal(tenantId: string, metric: string, now = new Date()): Promise<number> {
      const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      const [row] = await db('usage_daily')
        .where({ tenant_id: tenantId, metric })
        .andWhere('day', '>=', from)
        .andWhere('day', '<', to)
        .select(db.raw('coalesce(sum(base + seen), 0)::bigint as n'));
      return Number(row.n);
    },
    /** Records a notice; true the first time for this tenant, period, metric and notice. */
    async notice(tenantId: string, period: string, metric: string, notice: string): Promise<boolean> {
      const rows = await db('usage_notices')
        .insert({ tenant_id: tenantId, period, metric, notice })
        .onConflict(['tenant_id', 'period', 'metric', 'notice'])
        .ignore()
        .returning('notice');
      return rows.length === 1;
    },
    async notices(tenantId: string, period: string): Promise<Array<{ metric: string; notice: string }>> {
      return db('usage_notices').where({ tenant_id: tenantId, period }).select('metric', 'notice').orderBy('created_at');
    },
  };
}
export type UsageRepo = ReturnType<typeof usageRepo>;
