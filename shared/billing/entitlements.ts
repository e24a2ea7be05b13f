import type { Notices } from '../platform/notices.js';
import { DEFAULT_PLAN, findPlan, type FeatureName, type Plan } from './plans.js';
import { AppError } from '../platform/errors.js';
import type { SubscriptionRow } from './subscriptions.repo.js';
import type { SubscriptionStatus } from './states.js';
import type { Logger } from '../platform/logger.js';

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

/** One store's plan as this process holds it. */
interface Held {
  /** The last plan read, as the promise that answers it (kept: a hit allocates nothing). */
  answer?: Promise<Entitlement>;
  /** When `answer` was read (its read started). */
  at: number;
  /** The read in flight, which every get without a usable plan shares. */
  loading?: Promise<Entitlement>;
  /** After a failed reload: the next one starts no sooner. */
  retryAt: number;
  /** The next failed read that is logged (one warning per store per back-off). */
  warnAt: number;
}

export interface EntitlementTimes {
  /** A plan read this recently answers without a reload. */
  ttlMs: number;
  /** After a failed read, the next reload (and the next warning) waits this long. */
  retryMs: number;
  /** A plan read longer ago than this is no longer answered: a get waits on a fresh read. */
  maxStaleMs: number;
  now: () => number;
}

const TIMES: EntitlementTimes = { ttlMs: 30_000, retryMs: 5_000, maxStaleMs: 600_000, now: Date.now };

/**
 * Per-process cache of each tenant's entitlement, dropped at once on the `subscription` notice
 * (the next get reads afresh and waits for it). A plan older than `ttlMs` still answers at once
 * while one reload per store runs in the background (stale-while-revalidate); a reload that fails
 * keeps the old plan answering, and the next starts `retryMs` later, until the plan is
 * `maxStaleMs` old (stale-if-error). With no usable plan (the first read, after a notice, or too
 * old) a get waits on the read in flight and rejects when it fails; the caller decides: the search
 * path goes on without a quota check (SearchMeter), a feature start is refused.
 */
export class Entitlements {
  private held = new Map<string, Held>();
  private times: EntitlementTimes;

  constructor(
    private load: { subscription(tenantId: string): Promise<SubscriptionRow | undefined>; searchesThisMonth(tenantId: string): Promise<number> },
    notices: Pick<Notices, 'on'>,
    private defaultPlan = DEFAULT_PLAN,
    times: Partial<EntitlementTimes> = {},
    private logger?: Pick<Logger, 'warn'>,
  ) {
    this.times = { ...TIMES, ...times };
    notices.on('subscription', (tenantId) => (tenantId === '*' ? this.held.clear() : this.held.delete(tenantId)));
  }

  get(tenantId: string): Promise<Entitlement> {
    const now = this.times.now();
    let h = this.held.get(tenantId);
    if (!h) this.held.set(tenantId, (h = { at: 0, retryAt: 0, warnAt: 0 }));
    if (h.answer) {
      const age = now - h.at;
      if (age < this.times.ttlMs) return h.answer;
      if (age < this.times.maxStaleMs) {
        if (!h.loading && now >= h.retryAt) this.read(tenantId, h);
        return h.answer;
      }
    }
    return h.loading ?? this.read(tenantId, h);
  }

  /** Reads the plan into `h` (a store dropped by a notice meanwhile keeps nothing of it). */
  private read(tenantId: string, h: Held): Promise<Entitlement> {
    const started = this.times.now();
    const value = (async () => {
      const [sub, rolled] = await Promise.all([this.load.subscription(tenantId), this.load.searchesThisMonth(tenantId)]);
      return { plan: effectivePlan(sub, this.defaultPlan), status: sub?.status ?? 'active', searchesRolled: rolled, subscribed: sub !== undefined };
    })();
    h.loading = value;
    value.then(
      () => {
        h.loading = undefined;
        h.answer = value;
        h.at = started;
      },
      (err) => {
        h.loading = undefined;
        h.retryAt = this.times.now() + this.times.retryMs;
        this.warn(tenantId, h, err);
      },
    );
    return value;
  }

  private warn(tenantId: string, h: Held, err: unknown): void {
    const now = this.times.now();
    if (now < h.warnAt || this.held.get(tenantId) !== h) return;
    h.warnAt = now + this.times.retryMs;
    const heldAgeS = h.answer ? Math.round((now - h.at) / 1000) : null;
    if (h.answer && now - h.at < this.times.maxStaleMs) {
      this.logger?.warn('store plan read failed: the plan read earlier still applies', { tenant_id: tenantId, held_age_s: heldAgeS, err });
    } else {
      this.logger?.warn('store plan read failed and no usable plan is held: searches go unchecked against the quota, feature starts are refused', {
        tenant_id: tenantId,
        held_age_s: heldAgeS,
        err,
      });
    }
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
