import { UnrecoverableError } from 'bullmq';
import { defineStage } from '../define-stage.js';
import { applyBillingEventJob, applyStoredEvent } from '../../shared/billing/index.js';

/** Applies one stored provider event to the subscription (never backwards); re-runs are no-ops (events.applied_at). */
export const applyBillingEvent = defineStage({
  ...applyBillingEventJob,
  async run({ data, deps }) {
    const outcome = await applyStoredEvent(
      {
        events: deps.repos.billingEvents,
        subscriptions: deps.repos.subscriptions,
        addons: deps.repos.addonPurchases,
        notices: deps.notices,
        notifications: deps.billingNotifications,
      },
      data.provider,
      data.eventId,
    );
    if (outcome === 'missing') throw new UnrecoverableError(`no stored event ${data.provider}/${data.eventId}`);
    return { outcome };
  },
});
