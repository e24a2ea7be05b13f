import type { BillingEvent, SubscriptionSnapshot } from './port.js';
import { planOfPrice } from './stripe-events.js';

const date = (s: unknown) => (typeof s === 'string' ? new Date(s) : null);

/** A Paddle Billing subscription entity as our snapshot (tenant and plan in its custom_data). */
export function paddleSubscription(d: any, prices: Record<string, string>): SubscriptionSnapshot | undefined {
  const tenantId = d?.custom_data?.tenant_id;
  if (typeof tenantId !== 'string') return undefined;
  const item = d.items?.[0];
  const byPrice = planOfPrice(prices, item?.price?.id);
  return {
    tenantId,
    planCode: d.custom_data.plan_code ?? byPrice?.planCode ?? 'free',
    interval: (d.billing_cycle?.interval ?? item?.price?.billing_cycle?.interval) === 'year' ? 'year' : 'month',
    rawStatus: String(d.status),
    customerId: d.customer_id ?? null,
    subscriptionId: d.id,
    periodStart: date(d.current_billing_period?.starts_at),
    periodEnd: date(d.current_billing_period?.ends_at),
    trialEndsAt: date(item?.trial_dates?.ends_at),
    cancelAtPeriodEnd: d.scheduled_change?.action === 'cancel',
  };
}

/**
 * A verified Paddle notification: `subscription.*` carry state; `transaction.completed` of a checkout
 * add-ons (custom_data.addons; not one the subscription made: origin `subscription_*`); it and `transaction.canceled` name the transaction (`checkout`: a
 * renewal's transaction names none of ours and changes no checkout).
 */
export function parsePaddleEvent(body: Buffer, prices: Record<string, string>): BillingEvent {
  const e = JSON.parse(body.toString('utf8'));
  if (typeof e?.event_id !== 'string' || typeof e?.event_type !== 'string' || typeof e?.occurred_at !== 'string') throw new Error('not a Paddle notification');
  const d = e.data ?? {};
  const event: BillingEvent = { id: e.event_id, type: e.event_type, occurredAt: new Date(e.occurred_at), tenantId: d.custom_data?.tenant_id ?? null };
  if (e.event_type.startsWith('subscription.')) event.subscription = paddleSubscription(d, prices);
  // Bundles are granted by the checkout's own transaction only: Paddle copies a subscription's custom_data (the checkout's
  // `addons` with it) to the transactions it makes for the subscription (renewals, one-time charges, plan changes), whose
  // completion would grant the bundles again, unbilled. Their origins are `subscription_*`.
  const madeBySubscription = typeof d.origin === 'string' && d.origin.startsWith('subscription_');
  if (e.event_type === 'transaction.completed' && Array.isArray(d.custom_data?.addons) && !madeBySubscription) event.addons = d.custom_data.addons;
  if ((e.event_type === 'transaction.completed' || e.event_type === 'transaction.canceled') && typeof d.id === 'string') {
    event.checkout = { id: d.id, status: e.event_type === 'transaction.completed' ? 'completed' : 'expired', subscriptionId: d.subscription_id ?? null };
  }
  return event;
}
