import { findAddon } from './plans.js';
import type { SubscriptionRow } from './subscriptions.repo.js';

export interface AddonBalance {
  units: number;
  used: number;
  remaining: number;
  period_end: string | null;
}

export interface PendingChange {
  plan_code: string;
  interval: 'month' | 'year';
  effective_at: string | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** SubscriptionOut (spec 2.5); a tenant without a subscription is on the free plan, provider `manual`. */
export function toSubscriptionOut(
  row: SubscriptionRow | undefined,
  units: Array<{ code: string; units: number; period_end: Date | null }>,
  conversationsUsed: number,
  defaultPlan = 'free',
) {
  const addons: Record<string, AddonBalance> = {};
  // Conversations are drawn from bundles in the order they expire first.
  let left = conversationsUsed;
  for (const u of [...units].sort((a, b) => (a.period_end?.getTime() ?? Infinity) - (b.period_end?.getTime() ?? Infinity))) {
    if (findAddon(u.code)?.kind !== 'assistant_conversations') continue;
    const used = Math.min(u.units, left);
    left -= used;
    addons[u.code] = { units: u.units, used, remaining: u.units - used, period_end: iso(u.period_end) };
  }
  if (!row)
    return {
      plan_code: defaultPlan,
      interval: 'month' as const,
      status: 'active' as const,
      provider: 'manual' as const,
      cancel_at_period_end: false,
      pending_change: null,
      credit_minor: 0,
      addons,
    };
  // A downgrade (or a shorter interval) waiting for the period end; a canceled subscription has none.
  const pending_change: PendingChange | null =
    row.pending_plan_code && row.status !== 'canceled'
      ? { plan_code: row.pending_plan_code, interval: row.pending_interval ?? row.interval, effective_at: iso(row.current_period_end) }
      : null;
  return {
    plan_code: row.plan_code,
    interval: row.interval,
    status: row.status,
    provider: row.provider,
    trial_ends_at: iso(row.trial_ends_at),
    current_period_start: iso(row.current_period_start),
    current_period_end: iso(row.current_period_end),
    cancel_at_period_end: row.cancel_at_period_end,
    pending_change,
    credit_minor: Number(row.credit_minor),
    addons,
  };
}
