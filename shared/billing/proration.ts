import { conflict } from '../platform/errors.js';
import { findPlan, planPrice, type Plan } from './plans.js';
import type { Interval, SubscriptionStatus } from './states.js';

/**
 * Proration in integer minor units. One rounding rule: a prorated amount is
 * `amount * remaining / period`, computed exactly (BigInt) and rounded half up to the minor unit,
 * once per line. Upgrades (a plan with a higher monthly price, or the same plan from monthly to
 * yearly) take effect now; downgrades (a lower monthly price, or the same plan from yearly to
 * monthly) take effect at the period end, with no charge and no credit now. During a trial
 * nothing has been paid: any change takes effect now, uncharged, and the trial keeps its end.
 */
export function prorate(amountMinor: number, remainingMs: number, periodMs: number): number {
  if (periodMs <= 0 || remainingMs <= 0) return 0;
  const r = BigInt(Math.min(remainingMs, periodMs));
  const p = BigInt(periodMs);
  return Number((BigInt(amountMinor) * r * 2n + p) / (2n * p));
}

export interface CurrentTerm {
  plan: string;
  interval: Interval;
  periodStart: Date;
  periodEnd: Date;
  /** The period is a trial: nothing paid to prorate. */
  trialing?: boolean;
}

export interface ChangeQuote {
  /** `trial`: a change during a trial, now and uncharged (add-on bundles aside). */
  kind: 'upgrade' | 'downgrade' | 'addons_only' | 'trial';
  /** Charged now (minor units): prorated plan difference plus add-on bundles. */
  chargeNowMinor: number;
  /** Unused time of the old term credited against the charge (already subtracted; > 0 left over goes to the customer's credit balance). */
  creditMinor: number;
  effectiveAt: Date;
  periodStart: Date;
  periodEnd: Date;
  lines: Array<{ description: string; amountMinor: number }>;
}

export function addInterval(from: Date, interval: Interval): Date {
  const d = new Date(from);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}

/**
 * When add-on bundles bought now expire: at the period end, or during a trial at the end of the
 * first paid period (a bundle bought on the trial's last day is not lost the next day).
 */
export function addonPeriodEnd(sub: { status: SubscriptionStatus; interval: Interval; periodEnd: Date | null }): Date | null {
  if (!sub.periodEnd) return null;
  return sub.status === 'trialing' ? addInterval(sub.periodEnd, sub.interval) : sub.periodEnd;
}

/** What a change from `current` to `to` costs now and when it takes effect. */
export function quoteChange(
  current: CurrentTerm,
  to: { plan: string; interval: Interval },
  now: Date,
  addons: Array<{ priceMinor: number; quantity: number; code: string }> = [],
): ChangeQuote {
  const from = findPlan(current.plan);
  const target = findPlan(to.plan);
  if (!from || !target) throw conflict('plan_unknown', `the plan "${!from ? current.plan : to.plan}" is not in the catalog`);
  const lines: ChangeQuote['lines'] = [];
  for (const a of addons) lines.push({ description: `${a.quantity} x ${a.code}`, amountMinor: a.priceMinor * a.quantity });
  const addonTotal = lines.reduce((s, l) => s + l.amountMinor, 0);
  const same = from.code === target.code && current.interval === to.interval;
  // Tiers rank by monthly price; on the same plan, monthly -> yearly is the upgrade (a longer commitment now).
  const tier = (p: Plan) => p.price_month_cents ?? Number.MAX_SAFE_INTEGER;
  const upgrade = !same && (tier(target) > tier(from) || (tier(target) === tier(from) && to.interval === 'year' && current.interval === 'month'));
  const remaining = current.periodEnd.getTime() - now.getTime();
  const period = current.periodEnd.getTime() - current.periodStart.getTime();
  // The same plan, or any change during a trial: the period stays and only add-ons are charged now.
  const samePeriod = (kind: 'addons_only' | 'trial') => ({
    kind,
    chargeNowMinor: addonTotal,
    creditMinor: 0,
    effectiveAt: now,
    periodStart: current.periodStart,
    periodEnd: current.periodEnd,
    lines,
  });
  if (same) return samePeriod('addons_only');
  if (current.trialing) return samePeriod('trial');
  if (!upgrade) {
    return {
      kind: 'downgrade',
      chargeNowMinor: addonTotal,
      creditMinor: 0,
      effectiveAt: current.periodEnd,
      periodStart: current.periodStart,
      periodEnd: current.periodEnd,
      lines,
    };
  }
  const oldPrice = planPrice(from, current.interval) ?? 0;
  const newPrice = planPrice(target, to.interval) ?? 0;
  const credit = prorate(oldPrice, remaining, period);
  if (to.interval === current.interval) {
    // Same period, more expensive plan: the difference for the time left.
    const charge = prorate(newPrice, remaining, period);
    lines.unshift(
      { description: `${target.name} for the rest of the period`, amountMinor: charge },
      { description: `unused ${from.name}`, amountMinor: -credit },
    );
    return {
      kind: 'upgrade',
      chargeNowMinor: Math.max(0, charge - credit) + addonTotal,
      creditMinor: Math.max(0, credit - charge),
      effectiveAt: now,
      periodStart: current.periodStart,
      periodEnd: current.periodEnd,
      lines,
    };
  }
  // Another interval (longer; or shorter on a higher tier) starts a new period now: its full price
  // less the unused time of the old one. What is left of that (yearly -> a monthly tier above) is
  // credit, which the next invoices draw on.
  lines.unshift({ description: `${target.name} (${to.interval})`, amountMinor: newPrice }, { description: `unused ${from.name}`, amountMinor: -credit });
  return {
    kind: 'upgrade',
    chargeNowMinor: Math.max(0, newPrice - credit) + addonTotal,
    creditMinor: Math.max(0, credit - newPrice),
    effectiveAt: now,
    periodStart: now,
    periodEnd: addInterval(now, to.interval),
    lines,
  };
}
