/** Subscription statuses (spec 3.5) and how providers' raw statuses map onto them. */
export const STATUSES = ['trialing', 'active', 'past_due', 'paused', 'canceled', 'incomplete'] as const;
export type SubscriptionStatus = (typeof STATUSES)[number];
export const PROVIDERS = ['paddle', 'stripe', 'mock', 'manual'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
export type { Interval } from '../engines/payments/port.js';

/** Statuses whose plan limits apply and that may buy add-ons or change plan. */
export const LIVE: readonly SubscriptionStatus[] = ['trialing', 'active'];

/**
 * Stripe's statuses as ours: `unpaid` (dunning exhausted, invoices left open) is `past_due`
 * (still owed, the plan's paid features stay until it is canceled); `incomplete_expired` (the
 * first payment never succeeded within 23 hours) is `canceled`.
 */
const STRIPE: Record<string, SubscriptionStatus> = {
  trialing: 'trialing',
  active: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  paused: 'paused',
  canceled: 'canceled',
  incomplete: 'incomplete',
  incomplete_expired: 'canceled',
};
/** Paddle Billing's subscription statuses. */
const PADDLE: Record<string, SubscriptionStatus> = { trialing: 'trialing', active: 'active', past_due: 'past_due', paused: 'paused', canceled: 'canceled' };

/** Our status for a provider's raw one (unknown raw statuses: `incomplete`, never a live status by accident). */
export function mapStatus(provider: ProviderName, raw: string): SubscriptionStatus {
  const table =
    provider === 'stripe' ? STRIPE : provider === 'paddle' ? PADDLE : (Object.fromEntries(STATUSES.map((s) => [s, s])) as Record<string, SubscriptionStatus>);
  return table[raw] ?? 'incomplete';
}
