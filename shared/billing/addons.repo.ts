import type { Knex } from 'knex';
import { findAddon } from './plans.js';

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

/** Statuses whose add-on bundles can be drawn on (the plan's own limits apply in them too). */
const DRAWABLE = ['trialing', 'active', 'past_due'];

/** Add-on bundles bought; one row per provider charge (a retried purchase is stored once). */
export function addonsRepo(db: Knex) {
  return {
    async record(row: Omit<AddonPurchaseRow, 'created_at'>): Promise<void> {
      await db('billing_addon_purchases').insert(row).onConflict('provider_ref').ignore();
    },
    /**
     * Units bought per add-on code that are still valid at `at` (period_end in the future, or
     * never expiring), while the subscription is trialing, active or past_due on a plan that may
     * buy the add-on: none while paused or canceled, none carried onto a plan that cannot buy them.
     */
    async units(tenantId: string, at: Date): Promise<Array<{ code: string; units: number; period_end: Date | null }>> {
      const rows = await db('billing_addon_purchases as p')
        .join('billing_subscriptions as s', 's.tenant_id', 'p.tenant_id')
        .where('p.tenant_id', tenantId)
        .whereIn('s.status', DRAWABLE)
        .andWhere((q) => q.whereNull('p.period_end').orWhere('p.period_end', '>', at))
        .groupBy('p.code', 's.plan_code')
        .select('p.code', 's.plan_code')
        .sum({ units: 'p.units' })
        .max({ period_end: 'p.period_end' });
      return (rows as unknown as Array<{ code: string; plan_code: string; units: string; period_end: Date | null }>)
        .filter((r) => findAddon(r.code)?.plans.includes(r.plan_code))
        .map((r) => ({ code: r.code, units: Number(r.units), period_end: r.period_end }));
    },
    /** Ends every bundle still valid at `at` (the subscription was canceled): a later subscription starts with none. */
    async end(tenantId: string, at: Date): Promise<void> {
      await db('billing_addon_purchases')
        .where({ tenant_id: tenantId })
        .andWhere((q) => q.whereNull('period_end').orWhere('period_end', '>', at))
        .update({ period_end: at });
    },
  };
}
