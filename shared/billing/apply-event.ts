import type { Knex } from 'knex';
import type { BillingEvent } from '../engines/payments/port.js';
import type { Notices } from '../platform/notices.js';
import { findAddon, findPlan } from './plans.js';
import { addonPeriodEnd } from './proration.js';
import type { AfterCommit, BillingNotifications } from './notifications.js';
import { billingEventsRepo } from './events.repo.js';
import { subscriptionsRepo } from './subscriptions.repo.js';
import { addonsRepo } from './addons.repo.js';
import { checkoutsRepo } from './checkouts.repo.js';
import { mapStatus, type ProviderName } from './states.js';
import { billingTransaction, writeSnapshot } from './subscription-change.js';

export interface ApplyDeps {
  /** The pool: each event is applied in one transaction of it. */
  db: Knex;
  notices: Pick<Notices, 'publish'>;
  notifications: Pick<BillingNotifications, 'record'>;
}

/** The repositories an event writes through, all on the event's transaction. */
const reposIn = (trx: Knex.Transaction) => ({
  events: billingEventsRepo(trx),
  subscriptions: subscriptionsRepo(trx),
  addons: addonsRepo(trx),
  checkouts: checkoutsRepo(trx),
});

const revive = (e: BillingEvent): BillingEvent => ({
  ...e,
  occurredAt: new Date(e.occurredAt),
  subscription: e.subscription && {
    ...e.subscription,
    periodStart: e.subscription.periodStart && new Date(e.subscription.periodStart),
    periodEnd: e.subscription.periodEnd && new Date(e.subscription.periodEnd),
    trialEndsAt: e.subscription.trialEndsAt && new Date(e.subscription.trialEndsAt),
  },
});

/**
 * Applies a stored event once: a subscription snapshot lands unless the row holds a newer state
 * (outcome `stale`); a canceled or reactivated subscription ends the add-on bundles bought
 * before; add-on bundles of a completed checkout are recorded per event and code; events without state (unknown types) are
 * marked `ignored`. Re-running is a no-op. A snapshot naming a plan the catalog does not have is
 * not applied: outcome `plan_unknown`, left unapplied so reconcile-billing retries it once the
 * catalog has the plan.
 *
 * A completed checkout supersedes the store's other open ones (close-checkout expires them at the
 * provider). One completed after it was superseded (paid before the expire landed) is accepted as
 * the store's latest decision: outcome `late_checkout_accepted`, the checkout that superseded it is
 * `replaced` (close-checkout cancels its subscription), and that subscription's events no longer
 * move the store (outcome `replaced_subscription`).
 *
 * All of an event's writes are one transaction (applyIn); notices and notification deliveries go
 * out after it commits.
 */
export async function applyStoredEvent(deps: ApplyDeps, provider: ProviderName, eventId: string): Promise<string> {
  return billingTransaction(deps.db, (trx, afterCommit) => applyIn(trx, deps, provider, eventId, afterCommit));
}

/**
 * Every write of one event, in `trx`, with the event row locked first: a failure anywhere leaves
 * nothing behind (the job's retry starts from a clean state, so it ends as a clean run would),
 * and a second worker on the same event waits, then finds it applied. Then the store's
 * subscription is locked: another event of the store, an API change or a stage applied at the
 * same moment waits, so the `before` this one reports (previous_status) is the state it replaced.
 */
async function applyIn(trx: Knex.Transaction, deps: ApplyDeps, provider: ProviderName, eventId: string, afterCommit: AfterCommit[]): Promise<string> {
  const repos = reposIn(trx);
  const row = await repos.events.lock(provider, eventId);
  if (!row) return 'missing';
  if (row.applied_at) return row.outcome ?? 'applied';
  const event = revive(row.payload);
  const tenantId = event.subscription?.tenantId ?? event.tenantId;
  if (tenantId) await repos.subscriptions.lock(tenantId);
  let outcome = 'ignored';
  if (event.subscription && !findPlan(event.subscription.planCode)) {
    await repos.events.markOutcome(provider, eventId, 'plan_unknown');
    return 'plan_unknown';
  }
  const checkout = event.checkout && event.tenantId ? await repos.checkouts.settle(provider, event.tenantId, event.checkout) : 'unchanged';
  const snap = event.subscription;
  if (snap?.subscriptionId && (await repos.checkouts.replacedSubscription(provider, snap.tenantId, snap.subscriptionId))) {
    await repos.events.markApplied(provider, eventId, 'replaced_subscription');
    return 'replaced_subscription';
  }
  if (event.subscription) {
    const written = await writeSnapshot(trx, deps, provider, event.subscription, event.occurredAt, afterCommit);
    outcome = written ? 'applied' : 'stale';
  }
  if (event.addons?.length && event.tenantId) {
    const s = event.subscription;
    const periodEnd = s ? addonPeriodEnd({ status: mapStatus(provider, s.rawStatus), interval: s.interval, periodEnd: s.periodEnd }) : null;
    for (const a of event.addons) {
      const addon = findAddon(a.code);
      if (!addon) continue;
      await repos.addons.record({
        id: `adp_${provider}_${eventId}_${a.code}`,
        tenant_id: event.tenantId,
        code: a.code,
        bundles: a.quantity,
        units: a.quantity * addon.bundle_size,
        amount_minor: String((addon.price_cents ?? 0) * a.quantity),
        currency: addon.currency,
        period_end: addon.expires === 'period_end' ? periodEnd : null,
        provider_ref: `${provider}:${eventId}:${a.code}`,
      });
    }
    if (outcome === 'ignored') outcome = 'applied';
  }
  if (checkout === 'late') outcome = 'late_checkout_accepted';
  else if (checkout !== 'unchanged' && outcome === 'ignored') outcome = 'applied';
  await repos.events.markApplied(provider, eventId, outcome);
  return outcome;
}
