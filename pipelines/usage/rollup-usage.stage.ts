import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { rollupUsage, usagePeriod, usageRepo } from '../../shared/usage/index.js';
import { THRESHOLDS, usageReport } from '../../shared/billing/index.js';

/**
 * Copies Redis usage counters into usage_daily (absolute reads: a re-run writes the same rows),
 * then sends each tenant's 80 % and 100 % notices once per metric per month (usage_notices key), each
 * recorded in one transaction with its deliveries.
 */
export const rollupUsageStage = defineStage({
  queue: 'usage-rollup',
  name: 'rollup-usage',
  schema: z.object({ run: z.string().optional() }),
  jobId: (d) => `rollup-usage-${d.run ?? newId('run')}`,
  attempts: 3,
  async run({ deps }) {
    const { repos } = deps;
    const tenants = await rollupUsage(deps.redis, deps.config.queuePrefix, repos.usage);
    const month = usagePeriod().month;
    let notices = 0;
    for (const tenantId of tenants) {
      const report = await usageReport(
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
        tenantId,
      );
      for (const m of report.metrics) {
        for (const [percent, notice] of THRESHOLDS) {
          if (m.limit === null || m.percent === null || m.percent < percent) continue;
          // The notice's row and its deliveries (the receivers' outbox rows) commit together: a failure
          // between them would leave the notice taken and never sent. The next run sends it instead.
          const n = { kind: 'usage.threshold' as const, tenantId, metric: m.metric, notice, period: month, used: m.used, limit: m.limit };
          const sent = await deps.db
            .transaction(async (trx) => {
              if (!(await usageRepo(trx).notice(tenantId, month, m.metric, notice))) return null;
              return deps.billingNotifications.record(trx, n);
            })
            .catch((err) => {
              deps.logger.warn('usage notice not recorded; the next roll-up sends it', { err, tenantId, metric: m.metric, notice });
              return null;
            });
          if (!sent) continue;
          notices++;
          await sent();
        }
      }
    }
    return { tenants: tenants.size, notices };
  },
});
