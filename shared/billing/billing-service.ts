import type { PaymentProvider } from '../engines/payments/port.js';
import { conflict } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { Notices } from '../platform/notices.js';
import { addonPeriodEnd, quoteChange } from './proration.js';
import type { Interval } from './states.js';
import { addonsTotal, allowedAddons, currentPlan, HELD, live, sellable, type AddonQty } from './billing-checks.js';
import type { BillingNotifications } from './notifications.js';
import type { SubscriptionRow, subscriptionsRepo } from './subscriptions.repo.js';
import type { addonsRepo } from './addons.repo.js';
import type { checkoutsRepo } from './checkouts.repo.js';

export interface BillingServiceDeps {
  provider: PaymentProvider;
  subscriptions: ReturnType<typeof subscriptionsRepo>;
  addons: ReturnType<typeof addonsRepo>;
  checkouts: Pick<ReturnType<typeof checkoutsRepo>, 'insert'>;
  notices: Pick<Notices, 'publish'>;
  notifications: Pick<BillingNotifications, 'emit'>;
}

/** Our own writes are stamped to the second, as provider events are: an event of the same second still applies. */
const toSecond = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);

/** Checkout, plan changes with proration, add-on purchases and cancellation (spec 4.4). */
export function billingService(deps: BillingServiceDeps) {
  const { provider, subscriptions } = deps;

  async function changed(before: SubscriptionRow, after: SubscriptionRow | undefined) {
    await deps.notices.publish('subscription', before.tenant_id);
    if (after) {
      await deps.notifications.emit({
        kind: 'subscription.changed',
        tenantId: after.tenant_id,
        plan_code: after.plan_code,
        status: after.status,
        previous_status: before.status,
        cancel_at_period_end: after.cancel_at_period_end,
      });
    }
  }

  return {
    async checkout(tenantId: string, input: { plan_code: string; interval: Interval; addons?: AddonQty }, baseUrl: string) {
      const plan = sellable(input.plan_code, input.interval);
      const bundles = allowedAddons(plan, input.addons ?? []);
      const sub = await subscriptions.get(tenantId);
      if (sub && HELD.includes(sub.status) && sub.provider !== 'manual') {
        throw conflict('subscription_exists', 'this store already has a subscription: change its plan instead');
      }
      const { url, checkoutId } = await provider.checkout({
        tenantId,
        planCode: plan.code,
        interval: input.interval,
        addons: input.addons ?? [],
        addonsMinor: addonsTotal(bundles),
        customerId: sub?.provider_customer_id ?? null,
        baseUrl,
      });
      // Recorded before the link is handed out: a checkout the store can pay is one the service can expire.
      await deps.checkouts.insert({
        id: newId('chk'),
        tenant_id: tenantId,
        provider: provider.name,
        provider_checkout_id: checkoutId,
        plan_code: plan.code,
        interval: input.interval,
        base_url: baseUrl,
      });
      return { url };
    },

    /**
     * Upgrades take effect now and charge the prorated difference; downgrades wait for the period
     * end (`pending_plan_code`), and a change back to the current plan drops a waiting one. During
     * a trial any change is now and uncharged. The provider draws a credit balance (`credit_minor`) first.
     */
    async changePlan(tenantId: string, input: { plan_code: string; interval: Interval; addons?: AddonQty }, baseUrl: string, now = new Date()) {
      const stateAt = toSecond(now);
      const sub = live(await subscriptions.get(tenantId));
      currentPlan(sub);
      const plan = sellable(input.plan_code, input.interval);
      const bundles = allowedAddons(plan, input.addons ?? []);
      if (!sub.current_period_start || !sub.current_period_end) throw conflict('subscription_not_live', 'the subscription has no current period');
      const quote = quoteChange(
        {
          plan: sub.plan_code,
          interval: sub.interval,
          periodStart: sub.current_period_start,
          periodEnd: sub.current_period_end,
          trialing: sub.status === 'trialing',
        },
        { plan: plan.code, interval: input.interval },
        now,
        bundles.map((b) => ({ code: b.addon.code, quantity: b.quantity, priceMinor: b.addon.price_cents! })),
      );
      const immediate = quote.kind === 'upgrade' || quote.kind === 'trial';
      const { creditMinor } = await provider.changePlan({
        tenantId,
        subscriptionId: sub.provider_subscription_id!,
        customerId: sub.provider_customer_id,
        planCode: plan.code,
        interval: input.interval,
        chargeNowMinor: quote.chargeNowMinor,
        creditMinor: quote.creditMinor,
        now: immediate,
        baseUrl,
      });
      // The credit balance is the provider's (drawn first, topped up by what this change leaves
      // over); mirrored when it reports one, as its events do.
      const credit = creditMinor === undefined ? {} : { credit_minor: String(creditMinor) };
      const after = await subscriptions.update(
        tenantId,
        immediate
          ? {
              plan_code: plan.code,
              interval: input.interval,
              current_period_start: quote.periodStart,
              current_period_end: quote.periodEnd,
              pending_plan_code: null,
              pending_interval: null,
              ...credit,
              state_at: stateAt,
            }
          : quote.kind === 'downgrade'
            ? { pending_plan_code: plan.code, pending_interval: input.interval, ...credit }
            : { pending_plan_code: null, pending_interval: null, ...credit },
      );
      const ref = newId('chg');
      const periodEnd = after && addonPeriodEnd({ status: after.status, interval: after.interval, periodEnd: after.current_period_end });
      for (const b of bundles) {
        await deps.addons.record({
          id: newId('adp'),
          tenant_id: tenantId,
          code: b.addon.code,
          bundles: b.quantity,
          units: b.quantity * b.addon.bundle_size,
          amount_minor: String(b.addon.price_cents! * b.quantity),
          currency: b.addon.currency,
          period_end: b.addon.expires === 'period_end' ? (periodEnd ?? null) : null,
          provider_ref: `${ref}:${b.addon.code}`,
        });
      }
      if (immediate) await changed(sub, after);
      return { subscription: after!, quote };
    },

    /**
     * A one-time charge for add-on bundles, in full (a credit balance is not drawn); needs a live
     * subscription on a plan that allows the add-on. Bought during a trial: charged now, valid to
     * the end of the first paid period.
     */
    async purchaseAddon(tenantId: string, input: { code: string; quantity: number }, baseUrl: string, idempotencyKey: string) {
      const sub = live(await subscriptions.get(tenantId));
      const [{ addon, quantity }] = allowedAddons(currentPlan(sub), [input]);
      const amount = addon.price_cents! * quantity;
      const { providerRef } = await provider.charge({
        tenantId,
        customerId: sub.provider_customer_id,
        subscriptionId: sub.provider_subscription_id,
        amountMinor: amount,
        currency: addon.currency,
        description: `${quantity} x ${addon.name}`,
        item: { key: `addon:${addon.code}`, quantity },
        baseUrl,
        idempotencyKey,
      });
      await deps.addons.record({
        id: newId('adp'),
        tenant_id: tenantId,
        code: addon.code,
        bundles: quantity,
        units: quantity * addon.bundle_size,
        amount_minor: String(amount),
        currency: addon.currency,
        period_end: addon.expires === 'period_end' ? addonPeriodEnd({ status: sub.status, interval: sub.interval, periodEnd: sub.current_period_end }) : null,
        provider_ref: providerRef,
      });
      return sub;
    },

    /** Now: canceled at once, its add-on bundles end. At period end: the status stays until then (end-billing-periods ends it). */
    async cancel(tenantId: string, input: { at_period_end: boolean; reason?: string | null }, baseUrl: string, now = new Date()) {
      const sub = await subscriptions.get(tenantId);
      if (!sub || sub.status === 'canceled' || sub.provider === 'manual') throw conflict('subscription_not_live', 'there is no subscription to cancel');
      if (sub.provider_subscription_id)
        await provider.cancel({ tenantId, subscriptionId: sub.provider_subscription_id, atPeriodEnd: input.at_period_end, baseUrl });
      const after = await subscriptions.update(
        tenantId,
        input.at_period_end
          ? { cancel_at_period_end: true, cancel_reason: input.reason ?? null, state_at: toSecond(now) }
          : { status: 'canceled', canceled_at: now, cancel_at_period_end: false, cancel_reason: input.reason ?? null, state_at: toSecond(now) },
      );
      if (!input.at_period_end) await deps.addons.end(tenantId, now);
      await changed(sub, after);
      return after!;
    },
  };
}
export type BillingService = ReturnType<typeof billingService>;
