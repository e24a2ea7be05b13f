import type { BillingEvent, Interval, SubscriptionSnapshot } from './port.js';

/** The mock's record of a subscription (what a real provider keeps on its side). */
export interface MockSubscription {
  id: string;
  customer: string;
  plan_code: string;
  interval: Interval;
  status: string;
  current_period_start: number;
  current_period_end: number;
  trial_end: number | null;
  cancel_at_period_end: boolean;
  /** A change waiting for the period end (a downgrade): the renewal bills and applies it. */
  pending?: { plan_code: string; interval: Interval } | null;
  /** Credit balance (minor units) the next invoices draw on, as a provider's customer balance. */
  credit_minor?: number;
}

const fromUnix = (n: number | null | undefined) => (n ? new Date(n * 1000) : null);

export function addInterval(from: Date, interval: Interval): Date {
  const d = new Date(from);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}

export function mockSnapshot(tenantId: string, sub: MockSubscription): SubscriptionSnapshot {
  return {
    tenantId,
    planCode: sub.plan_code,
    interval: sub.interval,
    rawStatus: sub.status,
    customerId: sub.customer,
    subscriptionId: sub.id,
    periodStart: fromUnix(sub.current_period_start),
    periodEnd: fromUnix(sub.current_period_end),
    trialEndsAt: fromUnix(sub.trial_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    creditMinor: typeof sub.credit_minor === 'number' ? sub.credit_minor : undefined,
  };
}

/**
 * `{id, type, created, data: {tenant_id, subscription?, addons?, checkout?}}` as a BillingEvent. A
 * `checkout.session.completed` whose payment failed (its subscription `incomplete`) completes no
 * checkout, as a declined card leaves a Stripe session open.
 */
export function parseMockEvent(body: Buffer): BillingEvent {
  const e = JSON.parse(body.toString('utf8'));
  if (typeof e?.id !== 'string' || typeof e?.type !== 'string' || typeof e?.created !== 'number') throw new Error('not a mock event');
  const tenantId = typeof e.data?.tenant_id === 'string' ? e.data.tenant_id : null;
  return {
    id: e.id,
    type: e.type,
    occurredAt: new Date(e.created * 1000),
    tenantId,
    subscription: tenantId && e.data?.subscription ? mockSnapshot(tenantId, e.data.subscription) : undefined,
    addons: Array.isArray(e.data?.addons) ? e.data.addons : undefined,
    checkout: mockCheckoutEvent(e.type, e.data),
  };
}

function mockCheckoutEvent(type: string, data: any): BillingEvent['checkout'] {
  if (typeof data?.checkout !== 'string') return undefined;
  if (type === 'checkout.session.expired') return { id: data.checkout, status: 'expired', subscriptionId: null };
  if (type !== 'checkout.session.completed' || data.subscription?.status === 'incomplete') return undefined;
  return { id: data.checkout, status: 'completed', subscriptionId: typeof data.subscription?.id === 'string' ? data.subscription.id : null };
}
