import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { endPeriod } from '../../shared/billing/index.js';

/**
 * For subscriptions the service keeps itself (mock, manual): ends those canceled at period end
 * once the period is over, applies downgrades waiting for the period end, and cancels those
 * past_due longer than BILLING_DUNNING_DAYS (only that ends a past_due one: its period's end
 * waits). A cancel ends the store's add-on bundles at the period's (or the dunning's) end. Each
 * store's change is one transaction taken with its row locked and still due (endPeriod): re-running, or a second run at the same moment, changes
 * nothing twice, and a run failing part-way leaves that store as it was for the retry.
 */
export const endBillingPeriods = defineStage({
  queue: 'billing',
  name: 'end-billing-periods',
  schema: z.object({ run: z.string().optional() }),
  jobId: (d) => `end-billing-periods-${d.run ?? newId('run')}`,
  attempts: 3,
  async run({ deps }) {
    const now = new Date();
    const { dunningDays } = deps.config.billing;
    const store = { db: deps.db, notices: deps.notices, notifications: deps.billingNotifications };
    let ended = 0;
    let changed = 0;
    for (const row of await deps.repos.subscriptions.due(now, dunningDays)) {
      const done = await endPeriod(store, row.tenant_id, now, dunningDays);
      if (done === 'ended') ended++;
      else if (done === 'changed') changed++;
    }
    return { ended, changed };
  },
});
