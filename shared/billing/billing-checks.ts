import { AppError, conflict } from '../platform/errors.js';
import { findAddon, findPlan, planPrice, type Plan } from './plans.js';
import { LIVE, type Interval, type SubscriptionStatus } from './states.js';
import type { SubscriptionRow } from './subscriptions.repo.js';

// What the billing service refuses (4xx, before anything is written or the provider is called), apart from what it does.

export type AddonQty = Array<{ code: string; quantity: number }>;

export function sellable(code: string, interval: Interval): Plan {
  const plan = findPlan(code);
  if (!plan) throw new AppError('plan_not_found', 404, `no plan "${code}"`);
  if (plan.code === 'free') throw conflict('plan_not_purchasable', 'the free plan needs no checkout; cancel the subscription to return to it');
  if (planPrice(plan, interval) === null) throw conflict('plan_not_self_serve', `the ${plan.name} plan is sold by contract, not through checkout`);
  return plan;
}

export function allowedAddons(plan: Plan, addons: AddonQty) {
  return addons.map((a) => {
    const addon = findAddon(a.code);
    if (!addon) throw new AppError('addon_not_found', 404, `no add-on "${a.code}"`);
    if (!addon.plans.includes(plan.code))
      throw conflict('addon_not_allowed', `the ${plan.name} plan cannot buy ${addon.code} (plans: ${addon.plans.join(', ')})`);
    if (addon.price_cents === null) throw conflict('addon_not_priced', `${addon.code} has no price yet`);
    return { addon, quantity: a.quantity };
  });
}

export function live(sub: SubscriptionRow | undefined): SubscriptionRow {
  if (!sub || !LIVE.includes(sub.status) || sub.provider === 'manual') throw conflict('subscription_not_live', 'this needs a trialing or active subscription');
  return sub;
}

/** The subscription's own plan; a code the catalog no longer has (written by a provider or an operator) is a 409, never a crash. */
export function currentPlan(sub: SubscriptionRow): Plan {
  const plan = findPlan(sub.plan_code);
  if (!plan) throw conflict('plan_unknown', `this subscription's plan "${sub.plan_code}" is not in the catalog: contact support to change it`);
  return plan;
}

/** A store holding one of these has a subscription: a second checkout would be a second charge. */
export const HELD: readonly SubscriptionStatus[] = [...LIVE, 'past_due', 'paused'];

export const addonsTotal = (bundles: ReturnType<typeof allowedAddons>) => bundles.reduce((s, b) => s + b.addon.price_cents! * b.quantity, 0);
