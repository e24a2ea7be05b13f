import type { BillingEvent } from '../engines/payments/port.js';
import type { Notices } from '../platform/notices.js';
import { findAddon, findPlan } from './plans.js';
import { addonPeriodEnd } from './proration.js';
import type { BillingNotifications } from './notifications.js';
import type { billingEventsRepo } from './events.repo.js';
import type { subscriptionsRepo } from './subscriptions.repo.js';
import type { addonsRepo } from './addons.repo.js';
import type { checkoutsRepo } from './checkouts.repo.js';
import { mapStatus, type ProviderName } from './states.js';

export interface ApplyDeps {
  events: ReturnType<typeof billingEventsRepo>;
  subscriptions: ReturnType<typeof subscriptionsRepo>;
  addons: ReturnType<typeof addonsRepo>;
  checkouts: Pick<ReturnType<typeof checkoutsRepo>, 'settle' | 'replacedSubscription'>;
  notices: Pick<Notices, 'publish'>;
  notifications: Pick<BillingNotifications, 'emit'>;
}

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
 */
export async function applyStoredEvent(deps: ApplyDeps, provider: ProviderName, eventId: string): Promise<string> {
  const row = await deps.events.get(provider, eventId);
  if (!row) return 'missing';
  if (row.applied_at) return row.outcome ?? 'applied';
  const event = revive(row.payload);
  let outcome = 'ignored';
  if (event.subscription && !findPlan(event.subscription.planCode)) {
    await deps.events.markOutcome(provider, eventId, 'plan_unknown');
    return 'plan_unknown';
  }
  const checkout = event.checkout && event.tenantId ? await deps.checkouts.settle(provider, event.tenantId, event.checkout) : 'unchanged';
  const snap = event.subscription;
  if (snap?.subscriptionId && (await deps.checkouts.replacedSubscription(provider, snap.tenantId, snap.subscriptionId))) {
    await deps.events.markApplied(provider, eventId, 'replaced_subscription');
    return 'replaced_subscription';
  }
  if (event.subscription) {
    const before = await deps.subscriptions.get(event.subscription.tenantId);
    const written = await deps.subscriptions.applySnapshot(provider, event.subscription, event.occurredAt);
    outcome = written ? 'applied' : 'stale';
    // Bundles end with the subscription, and a reactivated one starts without the old ones,
    // whichever path canceled it (here, the API, end-billing-periods, reconcile).
    const reactivated = before?.status === 'canceled' && written && written.status !== 'canceled';
    if (written?.status === 'canceled' || reactivated) await deps.addons.end(written.tenant_id, event.occurredAt);
    if (
      written &&
      (before?.status !== written.status || before?.plan_code !== written.plan_code || before?.cancel_at_period_end !== written.cancel_at_period_end)
    ) {
      await deps.notices.publish('subscription', written.tenant_id);
      await deps.notifications.emit({
        kind: 'subscription.changed',
        tenantId: written.tenant_id,
        plan_code: written.plan_code,
        status: written.status,
        previous_status: before?.status ?? null,
        cancel_at_period_end: written.cancel_at_period_end,
      });
    }
  }
  if (event.addons?.length && event.tenantId) {
    const s = event.subscription;
    const periodEnd = s ? addonPeriodEnd({ status: mapStatus(provider, s.rawStatus), interval: s.interval, periodEnd: s.periodEnd }) : null;
    for (const a of event.addons) {
      const addon = findAddon(a.code);
      if (!addon) continue;
      await deps.addons.record({
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
  await deps.events.markApplied(provider, eventId, outcome);
  return outcome;
}
