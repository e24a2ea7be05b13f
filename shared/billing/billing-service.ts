import type { Knex } from 'knex';
import type { PaymentProvider } from '../engines/payments/port.js';
import { conflict } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { Notices } from '../platform/notices.js';
import { addonPeriodEnd, quoteChange } from './proration.js';
import type { Interval } from './states.js';
import { addonsTotal, allowedAddons, currentPlan, HELD, live, sellable, type AddonQty } from './billing-checks.js';
import type { AfterCommit, BillingNotifications } from './notifications.js';
import { subscriptionsRepo, type SubscriptionRow } from './subscriptions.repo.js';
import { addonsRepo } from './addons.repo.js';
import { checkoutsRepo } from './checkouts.repo.js';
import { billingTransaction, recordChange } from './subscription-change.js';
import { changeSlots, lockStoreWithin, providerUnanswered } from './change-limits.js';

export interface BillingServiceDeps {
  /** The pool: each change of a store is one transaction of it. */
  db: Knex;
  provider: PaymentProvider;
  notices: Pick<Notices, 'publish'>;
  notifications: Pick<BillingNotifications, 'record'>;
  /** BILLING_MAX_CONCURRENT changes at once in this process; BILLING_WAIT_MS for a place, or for the store's lock. */
  changes: { maxConcurrent: number; waitMs: number };
}

/** Our own writes are stamped to the second, as provider events are: an event of the same second still applies. */
const toSecond = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);

/** What one change of a store works with: its transaction, its subscription as locked, and what waits for the commit. */
interface StoreChange {
  trx: Knex.Transaction;
  sub: SubscriptionRow | undefined;
  subscriptions: ReturnType<typeof subscriptionsRepo>;
  addons: ReturnType<typeof addonsRepo>;
  afterCommit: AfterCommit[];
}

/**
 * Checkout, plan changes with proration, add-on purchases and cancellation (spec 4.4).
 *
 * A change is one transaction holding the store's subscription lock from its first read to its
 * commit, the provider's call included, so the event the provider sends for it (the mock delivers
 * it before answering), another event or request waits and starts from its result. Bounded so a
 * burst or a slow provider cannot take the process's pool: a few changes at once per process, a
 * short wait for the store's lock (a second change of the store answers 409), and a timeout on
 * each of the provider's HTTP requests (the adapters). The order is
 * as it always was: checks, the provider, our writes. A rollback cannot undo the provider's call:
 * when our writes fail after it (500, nothing of ours stays), the provider's webhook, or
 * reconcile-billing if it is lost, writes the state the provider holds (README: "One store's
 * billing writes", for the client's retry).
 */
export function billingService(deps: BillingServiceDeps) {
  const { provider } = deps;
  const slots = changeSlots(deps.changes.maxConcurrent, deps.changes.waitMs);

  // A place among the process's changes first (503 billing_busy), then the store's lock (409
  // billing_change_in_progress); a provider that does not answer rolls the change back (503).
  const onStore = <T>(tenantId: string, work: (c: StoreChange) => Promise<T>): Promise<T> =>
    slots.run(() =>
      billingTransaction(deps.db, async (trx, afterCommit) => {
        const sub = await lockStoreWithin(trx, tenantId, deps.changes.waitMs);
        return work({ trx, sub, subscriptions: subscriptionsRepo(trx), addons: addonsRepo(trx), afterCommit });
      }).catch(providerUnanswered),
    );

  const changed = async (c: StoreChange, before: SubscriptionRow, after: SubscriptionRow | undefined) => {
    if (after) await recordChange(c.trx, deps, before, after, c.afterCommit);
  };

  return {
    /** Opens a provider checkout and records it (one write, no subscription to lock: the subscription comes with its webhook). */
    async checkout(tenantId: string, input: { plan_code: string; interval: Interval; addons?: AddonQty }, baseUrl: string) {
      const plan = sellable(input.plan_code, input.interval);
      const bundles = allowedAddons(plan, input.addons ?? []);
      const sub = await subscriptionsRepo(deps.db).get(tenantId);
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
      await checkoutsRepo(deps.db).insert({
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
     * Add-on bundles bought with it are charged now, once per `idempotencyKey`, up or down.
     */
    async changePlan(
      tenantId: string,
      input: { plan_code: string; interval: Interval; addons?: AddonQty },
      baseUrl: string,
      idempotencyKey: string,
      now = new Date(),
    ) {
      const stateAt = toSecond(now);
      return onStore(tenantId, async (c) => {
        const sub = live(c.sub);
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
          trialing: quote.kind === 'trial',
          // Charged once with the change by every provider (the request's key keeps a retry from charging them again).
          addons: bundles.map((b) => ({
            code: b.addon.code,
            quantity: b.quantity,
            amountMinor: b.addon.price_cents! * b.quantity,
            currency: b.addon.currency,
            description: `${b.quantity} x ${b.addon.name}`,
          })),
          idempotencyKey,
          baseUrl,
        });
        // The credit balance is the provider's (drawn first, topped up by what this change leaves
        // over); mirrored when it reports one, as its events do.
        const credit = creditMinor === undefined ? {} : { credit_minor: String(creditMinor) };
        const after = await c.subscriptions.update(
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
          await c.addons.record({
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
        if (immediate) await changed(c, sub, after);
        return { subscription: after!, quote };
      });
    },

    /**
     * A one-time charge for add-on bundles, in full (a credit balance is not drawn); needs a live
     * subscription on a plan that allows the add-on. Bought during a trial: charged now, valid to
     * the end of the first paid period. Under the store's lock, so a cancel at the same moment
     * either refuses it (409) or ends the bundles it bought.
     */
    async purchaseAddon(tenantId: string, input: { code: string; quantity: number }, baseUrl: string, idempotencyKey: string) {
      return onStore(tenantId, async (c) => {
        const sub = live(c.sub);
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
        await c.addons.record({
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
      });
    },

    /** Now: canceled at once, its add-on bundles end. At period end: the status stays until then (end-billing-periods ends it). */
    async cancel(tenantId: string, input: { at_period_end: boolean; reason?: string | null }, baseUrl: string, now = new Date()) {
      return onStore(tenantId, async (c) => {
        const sub = c.sub;
        if (!sub || sub.status === 'canceled' || sub.provider === 'manual') throw conflict('subscription_not_live', 'there is no subscription to cancel');
        const done = sub.provider_subscription_id
          ? await provider.cancel({ tenantId, subscriptionId: sub.provider_subscription_id, atPeriodEnd: input.at_period_end, baseUrl })
          : undefined;
        // Canceled at the provider already (its event still on the way): canceled now, not at the period's end.
        const atPeriodEnd = input.at_period_end && !done?.alreadyCanceled;
        const after = await c.subscriptions.update(
          tenantId,
          atPeriodEnd
            ? { cancel_at_period_end: true, cancel_reason: input.reason ?? null, state_at: toSecond(now) }
            : {
                status: 'canceled',
                canceled_at: now,
                cancel_at_period_end: false,
                pending_plan_code: null,
                pending_interval: null,
                cancel_reason: input.reason ?? null,
                state_at: toSecond(now),
              },
        );
        if (!atPeriodEnd) await c.addons.end(tenantId, now);
        await changed(c, sub, after);
        return after!;
      });
    },
  };
}
export type BillingService = ReturnType<typeof billingService>;
