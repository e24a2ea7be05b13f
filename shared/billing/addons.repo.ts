import type { Knex } from 'knex';

export interface AddonPurchaseRow {
  id: string;
  tenant_id: string;
  code: string;
  bundles: number;
  units: number;
  amount_minor: string;
  currency: string;
  period_end: Date | null;
  provider_ref: string;
  created_at: Date;
}

/** Add-on bundles bought; one row per provider charge (a retried purchase is stored once). */
export function addonsRepo(db: Knex) {
  return {
    async record(row: Omit<AddonPurchaseRow, 'created_at'>): Promise<void> {
      await db('billing_addon_purchases').insert(row).onConflict('provider_ref').ignore();
    },
    /** Units bought per add-on code that are still valid at `at` (period_end in the future, or never expiring). */
    async units(tenantId: string, at: Date): Promise<Array<{ code: string; units: number; period_end: Date | null }>> {
      const rows = await db('billing_addon_purchases')
        .where({ tenant_id: tenantId })
        .andWhere((q) => q.whereNull('period_end').orWhere('period_end', '>', at))
        .groupBy('code')
        .select('code')
        .sum({ units: 'units' })
        .max({ period_end: 'period_end' });
      return (rows as unknown as Array<{ code: string; units: string; period_end: Date | null }>).map((r) => ({
        code: r.code,
        units: Number(r.units),
        period_end: r.period_end,
      }));
    },
  };
}
