import type { BillingEvent, Interval, SubscriptionSnapshot } from './port.js';

const fromUnix = (n: unknown) => (typeof n === 'number' && n > 0 ? new Date(n * 1000) : null);

/** Plan and interval of a price id, from the `plan:interval=price_id` map (STRIPE_PRICES / PADDLE_PRICES). */
export function planOfPrice(prices: Record<string, string>, priceId: unknown): { planCode: string; interval: Interval } | null {
  const hit = Object.entries(prices).find(([, id]) => id === priceId);
  if (!hit) return null;
  const [planCode, interval] = hit[0].split(':');
  return { planCode, interval: interval === 'year' ? 'year' : 'month' };
}

/** A Stripe Subscription object as our snapshot (the tenant and plan come from its metadata, set at checkout). */
export function stripeSubscription(o: any, prices: Record<string, string>): SubscriptionSnapshot | undefined {
  const tenantId = o?.metadata?.tenant_id;
  if (typeof tenantId !== 'string') return undefined;
  const item = o.items?.data?.[0];
  const byPrice = planOfPrice(prices, item?.price?.id);
  return {
    tenantId,
    planCode: o.metadata.plan_code ?? byPrice?.planCode ?? 'free',
    interval: item?.price?.recurring?.interval === 'year' ? 'year' : (byPrice?.interval ?? 'month'),
    rawStatus: String(o.status),
    customerId: typeof o.customer === 'string' ? o.customer : (o.customer?.id ?? null),
    subscriptionId: o.id,
    // Newer API versions keep the period on the items.
    periodStart: fromUnix(o.current_period_start ?? item?.current_period_start),
    periodEnd: fromUnix(o.current_period_end ?? item?.current_period_end),
    trialEndsAt: fromUnix(o.trial_end),
    cancelAtPeriodEnd: Boolean(o.cancel_at_period_end),
  };
}

/**
 * A verified Stripe event: `customer.subscription.*` carry the subscription's state;
 * `checkout.session.completed` carries add-on bundles bought with it (metadata `addons`, JSON);
 * it and `checkout.session.expired` name the session (`checkout`); every other type is stored and acknowledged without effect.
 */
export function parseStripeEvent(body: Buffer, prices: Record<string, string>): BillingEvent {
  const e = JSON.parse(body.toString('utf8'));
  if (typeof e?.id !== 'string' || typeof e?.type !== 'string' || typeof e?.created !== 'number') throw new Error('not a Stripe event');
  const o = e.data?.object ?? {};
  const event: BillingEvent = { id: e.id, type: e.type, occurredAt: new Date(e.created * 1000), tenantId: o.metadata?.tenant_id ?? null };
  if (e.type.startsWith('customer.subscription.')) event.subscription = stripeSubscription(o, prices);
  if ((e.type === 'checkout.session.completed' || e.type === 'checkout.session.expired') && typeof o.id === 'string') {
    const sub = typeof o.subscription === 'string' ? o.subscription : (o.subscription?.id ?? null);
    event.checkout = { id: o.id, status: e.type === 'checkout.session.completed' ? 'completed' : 'expired', subscriptionId: sub };
  }
  if (e.type === 'checkout.session.completed' && typeof o.metadata?.addons === 'string') {
    try {
      event.addons = JSON.parse(o.metadata.addons);
    } catch {
      // metadata we did not write: no add-ons
    }
  }
  return event;
}
