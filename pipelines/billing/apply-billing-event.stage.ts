import { UnrecoverableError } from 'bullmq';
import { defineStage } from '../define-stage.js';
import { applyBillingEventJob, applyStoredEvent } from '../../shared/billing/index.js';
import { queueCheckoutCloses } from './queue-checkout-closes.js';

/**
 * Applies one stored provider event to the subscription (never backwards) in one transaction; re-runs
 * are no-ops (events.applied_at), and a failed attempt leaves nothing for the retry to trip on. Then
 * queues close-checkout for what it left the store to close at the provider.
 */
export const applyBillingEvent = defineStage({
  ...applyBillingEventJob,
  async run({ data, deps }) {
    const outcome = await applyStoredEvent({ db: deps.db, notices: deps.notices, notifications: deps.billingNotifications }, data.provider, data.eventId);
    if (outcome === 'missing') throw new UnrecoverableError(`no stored event ${data.provider}/${data.eventId}`);
    const tenantId = (await deps.repos.billingEvents.get(data.provider, data.eventId))?.tenant_id;
    if (outcome === 'late_checkout_accepted')
      deps.logger.warn('a superseded checkout was paid: the store follows it', { tenant: tenantId, event: data.eventId });
    const closes = tenantId ? await queueCheckoutCloses(deps, null, tenantId) : 0;
    return { outcome, closes };
  },
});
