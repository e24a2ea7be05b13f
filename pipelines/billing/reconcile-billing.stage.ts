import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { applyBillingEventJob } from '../../shared/billing/index.js';

/**
 * Daily: queues stored events left unapplied (their enqueue was lost), and compares every live
 * subscription with the provider's own state, writing the provider's snapshot when it differs
 * (as of now: a later webhook still wins). Re-runnable: writes are the same snapshot.
 */
export const reconcileBilling = defineStage({
  queue: 'billing',
  name: 'reconcile-billing',
  schema: z.object({ run: z.string().optional(), unappliedAfterMs: z.number().int().min(0).default(60_000) }),
  jobId: (d) => `reconcile-billing-${d.run ?? newId('run')}`,
  attempts: 3,
  async run({ data, deps }) {
    let requeued = 0;
    for (const e of await deps.repos.billingEvents.unapplied(data.unappliedAfterMs)) {
      if (e.provider === 'manual') continue;
      if ((await deps.queues.requeue(applyBillingEventJob, { provider: e.provider, eventId: e.event_id })) !== 'held') requeued++;
    }
    let corrected = 0;
    const provider = deps.payments;
    for (const row of await deps.repos.subscriptions.withProvider(provider.name)) {
      const snap = await provider.fetch({ tenantId: row.tenant_id, subscriptionId: row.provider_subscription_id! });
      if (!snap) continue;
      const differs =
        snap.rawStatus !== row.provider_status ||
        snap.planCode !== row.plan_code ||
        snap.cancelAtPeriodEnd !== row.cancel_at_period_end ||
        snap.periodEnd?.getTime() !== row.current_period_end?.getTime();
      if (!differs) continue;
      if (await deps.repos.subscriptions.applySnapshot(provider.name, snap, new Date())) {
        corrected++;
        await deps.notices.publish('subscription', row.tenant_id);
      }
    }
    if (corrected) deps.logger.warn('subscriptions corrected from the provider', { corrected });
    return { requeued, corrected };
  },
});
