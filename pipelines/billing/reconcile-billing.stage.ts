import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { applyBillingEventJob, correctFromProvider } from '../../shared/billing/index.js';

/**
 * Daily: queues stored events left unapplied (their enqueue was lost), and compares every live
 * subscription with the provider's own state, writing the provider's snapshot where it differs as
 * its webhook would (as of the reading: a later webhook still wins), one store per transaction
 * with its row locked (correctFromProvider). Re-runnable: a corrected row no longer differs.
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
    const store = { db: deps.db, notices: deps.notices, notifications: deps.billingNotifications };
    for (const row of await deps.repos.subscriptions.withProvider(provider.name)) {
      // The provider is read outside any transaction: no row stays locked during its call.
      const readAt = new Date();
      const snap = await provider.fetch({ tenantId: row.tenant_id, subscriptionId: row.provider_subscription_id! });
      if (snap && (await correctFromProvider(store, provider.name, snap, readAt))) corrected++;
    }
    if (corrected) deps.logger.warn('subscriptions corrected from the provider', { corrected });
    return { requeued, corrected };
  },
});
