import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { applyBillingEvent } from './apply-billing-event.stage.js';
import { endBillingPeriods } from './end-billing-periods.stage.js';
import { reconcileBilling } from './reconcile-billing.stage.js';
import { requeueBillingEvents } from './requeue-billing-events.stage.js';
import { closeCheckout } from './close-checkout.stage.js';

/**
 * Billing: provider events applied in order of their time (lost enqueues re-queued), checkouts a
 * completion superseded closed at the provider, period ends, daily reconcile with the provider.
 */
export const stages = [applyBillingEvent, closeCheckout, endBillingPeriods, reconcileBilling, requeueBillingEvents];

export const schedules = (config: Config): Schedule[] => [
  { id: 'end-billing-periods', job: endBillingPeriods, repeat: { every: config.billing.periodsEveryMs }, data: {} },
  { id: 'reconcile-billing', job: reconcileBilling, repeat: { pattern: config.billing.reconcileCron }, data: {}, recover: true },
  { id: 'requeue-billing-events', job: requeueBillingEvents, repeat: { every: config.sweepEveryMs }, data: { unappliedAfterMs: 10_000 }, recover: true },
];
