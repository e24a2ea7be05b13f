import type { Knex } from 'knex';

/** `YYYY-MM` (UTC) of a time: the usage month. */
export const usageMonth = (at = new Date()) => at.toISOString().slice(0, 7);

/** Monthly translation usage: products translated (each once a month) and provider cost. */
export function usageRepo(db: Knex) {
  return {
    /** Counts each product once per month; returns how many were new this month. */
    async countProducts(tenantId: string, productIds: string[], month = usageMonth()): Promise<number> {
      if (!productIds.length) return 0;
      const res = await db.raw(`INSERT INTO translation_usage_products (tenant_id, month, product_id) SELECT ?, ?, unnest(?::text[]) ON CONFLICT DO NOTHING`, [
        tenantId,
        month,
        [...new Set(productIds)],
      ]);
      return res.rowCount ?? 0;
    },
    async addCost(
      tenantId: string,
      target: string,
      cost: { micros: number; inputTokens: number; outputTokens: number; calls: number },
      month = usageMonth(),
    ): Promise<void> {
      await db.raw(
        `INSERT INTO translation_usage_costs (tenant_id, month, target_locale, cost_micros, input_tokens, output_tokens, calls) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, month, target_locale) DO UPDATE SET cost_micros = translation_usage_costs.cost_micros + EXCLUDED.cost_micros,
           input_tokens = translation_usage_costs.input_tokens + EXCLUDED.input_tokens, output_tokens = translation_usage_costs.output_tokens + EXCLUDED.output_tokens,
           calls = translation_usage_costs.calls + EXCLUDED.calls`,
        [tenantId, month, target, cost.micros, cost.inputTokens, cost.outputTokens, cost.calls],
      );
    },
    async products(tenantId: string, month: string): Promise<number> {
      const [{ n }] = await db('translation_usage_products').where({ tenant_id: tenantId, month }).count({ n: '*' });
      return Number(n);
    },
    /** Provider cost in micro-USD for the month (one target locale, or all). */
    async costMicros(tenantId: string, month: string, target?: string): Promise<number> {
      const q = db('translation_usage_costs').where({ tenant_id: tenantId, month });
      if (target) q.andWhere({ target_locale: target });
      const [{ s }] = await q.sum({ s: 'cost_micros' });
      return Number(s ?? 0);
    },
  };
}
export type UsageRepo = ReturnType<typeof usageRepo>;
