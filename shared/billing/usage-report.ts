import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import { translatedProducts, translationCostMicros } from '../translation/index.js';
import { usageKeys, usagePeriod, type UsageRepo } from '../usage/index.js';
import { effectivePlan } from './entitlements.js';
import type { Plan } from './plans.js';
import type { SubscriptionRow } from './subscriptions.repo.js';

export const THRESHOLDS = [
  [80, '80_percent'],
  [100, '100_percent'],
] as const;

export interface UsageMetricOut {
  metric: 'search' | 'assistant_message' | 'assistant_conversation' | 'translated_product' | 'ai_cost_micros_usd' | 'products_indexed';
  used: number;
  limit: number | null;
  percent: number | null;
}

export interface UsageReportDeps {
  db: Knex;
  redis: Pick<Redis, 'get'>;
  prefix: string;
  usage: Pick<UsageRepo, 'days' | 'notices'>;
  subscription(tenantId: string): Promise<SubscriptionRow | undefined>;
  addonUnits(tenantId: string, at: Date): Promise<Array<{ code: string; units: number }>>;
  productsCount(tenantId: string): Promise<number>;
  /** The plan of a tenant without a subscription (BILLING_DEFAULT_PLAN). */
  defaultPlan?: string;
}

/** The usage period: the calendar month in UTC (searches_limit is per month, whatever the billing anchor). */
export function monthBounds(now = new Date()): { start: string; end: string; month: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10), month: usagePeriod(now).month };
}

/** Percent of a limit with one decimal; null without a limit; a zero limit is 100 % once anything is used. */
export function percentOf(used: number, limit: number | null): number | null {
  if (limit === null) return null;
  if (limit === 0) return used > 0 ? 100 : 0;
  return Math.round((used * 1000) / limit) / 10;
}

/** Overage: per started 1,000 searches over the limit, at the plan's price (0 on plans without overage). */
export function overageCents(plan: Plan, searches: number): number {
  const price = plan.overage.per_1000_searches_cents;
  if (plan.overage.hard_limit || price === null || plan.searches_limit === null || searches <= plan.searches_limit) return 0;
  return Math.ceil((searches - plan.searches_limit) / 1000) * price;
}

/** UsageOut (spec 2.5) of a tenant for this month, from the rolled-up days and the metrics' own tables. */
export async function usageReport(deps: UsageReportDeps, tenantId: string, now = new Date()) {
  const { start, end, month } = monthBounds(now);
  const sub = await deps.subscription(tenantId);
  const plan = effectivePlan(sub, deps.defaultPlan);
  const [days, products, translated, translationCost, aiRewrite, addons, notices] = await Promise.all([
    deps.usage.days(tenantId, start, end),
    deps.productsCount(tenantId),
    translatedProducts(deps.db, tenantId, month),
    translationCostMicros(deps.db, tenantId, month),
    deps.redis.get(usageKeys(deps.prefix).count('ai_cost_micros_usd', tenantId, month)),
    deps.addonUnits(tenantId, now),
    deps.usage.notices(tenantId, month),
  ]);
  const total = (metric: string) => days.filter((d) => d.metric === metric).reduce((s, d) => s + d.value, 0);
  const conversationsLimit = addons.length ? addons.reduce((s, a) => s + a.units, 0) : null;
  const metric = (m: UsageMetricOut['metric'], used: number, limit: number | null): UsageMetricOut => ({
    metric: m,
    used,
    limit,
    percent: percentOf(used, limit),
  });
  const searches = total('search');
  const metrics = [
    metric('search', searches, plan.searches_limit),
    metric('assistant_message', total('assistant_message'), null),
    metric('assistant_conversation', total('assistant_conversation'), conversationsLimit),
    metric('translated_product', translated, plan.features.translated_products_limit),
    metric('ai_cost_micros_usd', Number(aiRewrite ?? 0) + translationCost, plan.features.ai_budget_micros_usd),
    metric('products_indexed', products, plan.products_limit),
  ];
  const byDay = new Map<string, Record<string, number>>();
  for (const d of days) byDay.set(d.day, { ...(byDay.get(d.day) ?? {}), [d.metric]: d.value });
  return {
    period_start: start,
    period_end: end,
    plan_code: plan.code,
    metrics,
    overage_estimate_cents: overageCents(plan, searches),
    daily: [...byDay.entries()].map(([day, v]) => ({
      day,
      searches: v.search ?? 0,
      suggests_not_billed: v.suggest ?? 0,
      assistant_messages: v.assistant_message ?? 0,
      assistant_conversations: v.assistant_conversation ?? 0,
      translated_products: v.translated_product ?? 0,
    })),
    notices: [...new Set(notices.map((n) => n.notice))] as Array<'80_percent' | '100_percent'>,
  };
}
