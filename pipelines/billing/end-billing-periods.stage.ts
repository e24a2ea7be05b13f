import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';

/**
 * For subscriptions the service keeps itself (mock, manual): ends those canceled at period end
 * once the period is over, applies downgrades waiting for the period end, and cancels those
 * past_due longer than BILLING_DUNNING_DAYS. Each change is a conditional update: re-running changes nothing.
 */
export const endBillingPeriods = defineStage({
  queue: 'billing',
  name: 'end-billing-periods',
  schema: z.object({ run: z.string().optional() }),
  jobId: (d) => `end-billing-periods-${d.run ?? newId('run')}`,
  attempts: 3,
  async run({ deps }) {
    const now = new Date();
    // Provider events carry whole seconds: a state_at with milliseconds would make an event of the same second look older.
    const stateAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const rows = await deps.repos.subscriptions.due(now, deps.config.billing.dunningDays);
    let ended = 0;
    let changed = 0;
    for (const row of rows) {
      const periodOver = row.current_period_end && row.current_period_end <= now;
      if (row.status === 'past_due' || (periodOver && row.cancel_at_period_end)) {
        await deps.repos.subscriptions.update(row.tenant_id, { status: 'canceled', canceled_at: now, cancel_at_period_end: false, state_at: stateAt });
        ended++;
      } else if (periodOver && row.pending_plan_code) {
        await deps.repos.subscriptions.update(row.tenant_id, {
          plan_code: row.pending_plan_code,
          interval: row.pending_interval ?? row.interval,
          pending_plan_code: null,
          pending_interval: null,
          state_at: stateAt,
        });
        changed++;
      } else continue;
      await deps.notices.publish('subscription', row.tenant_id);
      const after = await deps.repos.subscriptions.get(row.tenant_id);
      if (after) {
        await deps.billingNotifications.emit({
          kind: 'subscription.changed',
          tenantId: row.tenant_id,
          plan_code: after.plan_code,
          status: after.status,
          previous_status: row.status,
          cancel_at_period_end: after.cancel_at_period_end,
        });
      }
    }
    return { ended, changed };
  },
});
