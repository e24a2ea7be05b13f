import type { Knex } from 'knex';
import { subscriptionsRepo } from './subscriptions.repo.js';
import { billingEventsRepo } from './events.repo.js';
import { addonsRepo } from './addons.repo.js';
import { checkoutsRepo } from './checkouts.repo.js';

/**
 * Billing: the plan and add-on catalog (plans.ts), subscriptions and their states, provider
 * webhook events applied in a stage, proration, add-on balances, the searches quota and the
 * usage report. Payment providers sit behind shared/engines/payments.
 */
export function billingRepos(db: Knex) {
  return { subscriptions: subscriptionsRepo(db), billingEvents: billingEventsRepo(db), addonPurchases: addonsRepo(db), checkouts: checkoutsRepo(db) };
}

export * from './plans.js';
export * from './states.js';
export * from './proration.js';
export * from './entitlements.js';
export * from './search-meter.js';
export * from './notifications.js';
export * from './usage-report.js';
export * from './subscription-out.js';
export * from './billing-service.js';
export * from './apply-event.js';
export * from './period-end.js';
export * from './reconcile.js';
export * from './subscription-change.js';
export * from './billing.jobs.js';
export type { SubscriptionRow } from './subscriptions.repo.js';
export type { EventRow } from './events.repo.js';
export type { CheckoutRow, CheckoutStatus, CheckoutOutcome } from './checkouts.repo.js';
