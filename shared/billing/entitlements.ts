import type { Notices } from '../platform/notices.js';
import { DEFAULT_PLAN, findPlan, type FeatureName, type Plan } from './plans.js';
import { AppError } from '../platform/errors.js';
import type { SubscriptionRow } from './subscriptions.repo.js';
import type { SubscriptionStatus } from './states.js';

/** The plan whose limits apply to a tenant now. */
export interface Entitlement {
  plan: Plan;
  status: SubscriptionStatus;
  /** Billed searches this month as rolled up into Postgres when loaded (survives a Redis restart). */
  searchesRolled: number;
  /** Whether the store has a subscription row (else the default plan applies). */
  subscribed: boolean;
}

/**
 * The monthly AI budget (micro-USD) a store's plan gives, for AiBudget: a subscribed store's plan
 * decides (free: 0, paid tiers their budget); a custom budget (null, enterprise) or no
 * subscription leaves it to the operator's AI_BUDGET_MICROS_USD (undefined).
 */
export function planAiBudget(entitlements: Pick<Entitlements, 'get'>) {
  return async (tenantId: string): Promise<number | undefined> => {
    const e = await entitlements.get(tenantId);
    return e.subscribed ? (e.plan.features.ai_budget_micros_usd ?? undefined) : undefined;
  };
}

/**
 * A subscription's plan applies while it is trialing, active or past_due (dunning keeps the
 * plan until the provider gives up and cancels); paused, canceled and incomplete fall back to
 * the free plan's limits.
 */
export function effectivePlan(sub: Pick<SubscriptionRow, 'plan_code' | 'status'> | undefined, defaultPlan = DEFAULT_PLAN): Plan {
  const free = findPlan(defaultPlan) ?? findPlan(DEFAULT_PLAN)!;
  if (!sub || !['trialing', 'active', 'past_due'].includes(sub.status)) return free;
  return findPlan(sub.plan_code) ?? free;
}

/**
 * Per-process cache of each tenant's entitlement (one database read per tenant per `ttlMs`),
 * dropped at once on the `subscription` notice.
 */
export class Entitlements {
  private cache = new Map<string, { at: number; value: Promise<Entitlement> }>();

  constructor(
    private load: { subscription(tenantId: string): Promise<SubscriptionRow | undefined>; searchesThisMonth(tenantId: string): Promise<number> },
    notices: Pick<Notices, 'on'>,
    private defaultPlan = DEFAULT_PLAN,
    private ttlMs = 30_000,
  ) {
    notices.on('subscription', (tenantId) => (tenantId === '*' ? this.cache.clear() : this.cache.delete(tenantId)));
  }

  get(tenantId: string): Promise<Entitlement> {
    const hit = this.cache.get(tenantId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const value = (async () => {
      const [sub, rolled] = await Promise.all([this.load.subscription(tenantId), this.load.searchesThisMonth(tenantId)]);
      return { plan: effectivePlan(sub, this.defaultPlan), status: sub?.status ?? 'active', searchesRolled: rolled, subscribed: sub !== undefined };
    })();
    this.cache.set(tenantId, { at: Date.now(), value });
    value.catch(() => this.cache.delete(tenantId));
    return value;
  }
}

/**
 * 402 `feature_not_in_plan` unless the store's plan has `feature` (plans.ts: experiments and
 * translation from Starter/Growth up). Checked where the feature starts work (an experiment's
 * start, a translation backfill that is not a dry run), not where a store reads or stops what it
 * has, so a store that moved down can still see and stop it.
 */
export async function requireFeature(entitlements: Pick<Entitlements, 'get'>, tenantId: string, feature: FeatureName): Promise<void> {
  const { plan } = await entitlements.get(tenantId);
  if (plan.features[feature]) return;
  throw new AppError('feature_not_in_plan', 402, `the ${plan.name} plan does not include ${feature}: change plan to use it`, { feature, plan: plan.code });
}
