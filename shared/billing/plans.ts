/**
 * The plan and add-on catalog, versioned with the code (PLAN_CATALOG_VERSION changes with any
 * price or limit). Money is in integer minor units (cents) of `currency`; a null price or limit
 * means "custom" (enterprise: set by contract). Subscriptions keep the plan code they were sold
 * under; a code is never reused for different terms.
 */
export const PLAN_CATALOG_VERSION = '2026-11-1';

export const FEATURE_NAMES = ['ai_rewrite', 'hybrid_search', 'recommend', 'experiments', 'translation', 'assistant'] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

export interface Plan {
  code: string;
  name: string;
  price_month_cents: number | null;
  price_year_cents: number | null;
  currency: string;
  products_limit: number | null;
  searches_limit: number | null;
  /** Which features the plan allows, and the monthly AI budgets (micro-USD; null: custom). */
  features: Record<FeatureName, boolean> & { ai_budget_micros_usd: number | null; translated_products_limit: number | null };
  /** Paid plans: price per 1,000 searches over the limit. `hard_limit`: searches over the limit are refused (free). */
  overage: { per_1000_searches_cents: number | null; hard_limit: boolean };
  trial_days: number;
}

export interface Addon {
  code: string;
  name: string;
  kind: 'assistant_conversations';
  bundle_size: number;
  price_cents: number | null;
  currency: string;
  plans: string[];
  expires: 'period_end' | 'never';
}

const features = (on: FeatureName[], ai: number | null, translated: number | null) => ({
  ...(Object.fromEntries(FEATURE_NAMES.map((f) => [f, on.includes(f)])) as Record<FeatureName, boolean>),
  ai_budget_micros_usd: ai,
  translated_products_limit: translated,
});

export const PLANS: Plan[] = [
  {
    code: 'free',
    name: 'Free',
    price_month_cents: 0,
    price_year_cents: 0,
    currency: 'USD',
    products_limit: 1_000,
    searches_limit: 10_000,
    features: features(['recommend'], 0, 0),
    overage: { per_1000_searches_cents: null, hard_limit: true },
    trial_days: 0,
  },
  {
    code: 'starter',
    name: 'Starter',
    price_month_cents: 2_900,
    price_year_cents: 29_000,
    currency: 'USD',
    products_limit: 10_000,
    searches_limit: 50_000,
    features: features(['recommend', 'ai_rewrite', 'translation'], 2_000_000, 2_000),
    overage: { per_1000_searches_cents: 50, hard_limit: false },
    trial_days: 14,
  },
  {
    code: 'growth',
    name: 'Growth',
    price_month_cents: 9_900,
    price_year_cents: 99_000,
    currency: 'USD',
    products_limit: 50_000,
    searches_limit: 250_000,
    features: features(['recommend', 'ai_rewrite', 'translation', 'hybrid_search', 'experiments', 'assistant'], 10_000_000, 20_000),
    overage: { per_1000_searches_cents: 40, hard_limit: false },
    trial_days: 14,
  },
  {
    code: 'scale',
    name: 'Scale',
    price_month_cents: 29_900,
    price_year_cents: 299_000,
    currency: 'USD',
    products_limit: 250_000,
    searches_limit: 1_500_000,
    features: features([...FEATURE_NAMES], 50_000_000, 100_000),
    overage: { per_1000_searches_cents: 30, hard_limit: false },
    trial_days: 14,
  },
  {
    code: 'enterprise',
    name: 'Enterprise',
    price_month_cents: null,
    price_year_cents: null,
    currency: 'USD',
    products_limit: null,
    searches_limit: null,
    features: features([...FEATURE_NAMES], null, null),
    overage: { per_1000_searches_cents: null, hard_limit: false },
    trial_days: 0,
  },
];

export const ADDONS: Addon[] = [
  {
    code: 'assistant_conversations_500',
    name: '500 assistant conversations',
    kind: 'assistant_conversations',
    bundle_size: 500,
    price_cents: 1_900,
    currency: 'USD',
    plans: ['growth', 'scale'],
    expires: 'period_end',
  },
  {
    code: 'assistant_conversations_5000',
    name: '5,000 assistant conversations',
    kind: 'assistant_conversations',
    bundle_size: 5_000,
    price_cents: 14_900,
    currency: 'USD',
    plans: ['growth', 'scale', 'enterprise'],
    expires: 'period_end',
  },
];

/** The plan of a tenant without a subscription row. */
export const DEFAULT_PLAN = 'free';

export function findPlan(code: string): Plan | undefined {
  return PLANS.find((p) => p.code === code);
}

export function findAddon(code: string): Addon | undefined {
  return ADDONS.find((a) => a.code === code);
}

/** The price of one period of a plan on an interval (null: custom or not sold on it). */
export function planPrice(plan: Plan, interval: 'month' | 'year'): number | null {
  return interval === 'month' ? plan.price_month_cents : plan.price_year_cents;
}
