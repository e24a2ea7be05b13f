import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { usageReport } from '../../../shared/billing/index.js';
import { UsageOut } from './usage.schema.js';

/** Usage this month against the plan (spec 4.4). */
export function usageRoutes(deps: Deps): RouteSpec[] {
  const { repos } = deps;
  return [
    /** UsageOut from the rolled-up days (behind Redis by at most USAGE_ROLLUP_EVERY_MS); read-only. */
    defineRoute({
      method: 'get',
      path: '/v1/usage',
      tag: 'usage',
      summary: 'Usage this period',
      auth: { scope: 'usage' },
      responses: { 200: { description: 'usage against the plan', schema: UsageOut } },
      async handle(ctx) {
        ctx.body = await usageReport(
          {
            db: deps.db,
            redis: deps.redis,
            prefix: deps.config.queuePrefix,
            usage: repos.usage,
            subscription: repos.subscriptions.get,
            addonUnits: repos.addonPurchases.units,
            productsCount: repos.products.count,
            defaultPlan: deps.config.billing.defaultPlan,
          },
          ctx.state.principal.tenantId,
        );
      },
    }),
  ];
}
