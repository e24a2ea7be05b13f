import type { Context } from 'koa';
import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { toSubscriptionOut } from '../../../shared/billing/index.js';
import { monthBounds } from '../../../shared/billing/index.js';
import { baseUrl } from './base-url.js';
import { CancelBody, ChangePlanBody, CheckoutBody, InvoiceOut, PurchaseBody, RedirectUrl, SubscriptionOut } from './billing.schema.js';

const BILLING = { scope: 'billing' as const };

/** What a change of the subscription can answer besides the route's checks (README: "One store's billing writes"). */
const CHANGE_ERRORS = {
  409: {
    description:
      "`billing_change_in_progress` (another change of this store's subscription is running: nothing was done; retry after `Retry-After`), or the subscription refuses it (`subscription_not_live`, `plan_unknown`, ...)",
  },
  503: {
    description:
      '`billing_busy` (more subscription changes at once than this server runs: nothing was done) or `payment_provider_unavailable` (the payment provider did not answer in time: the change rolled back); retry after `Retry-After`',
  },
};

/** The tenant's subscription: checkout, plan change, add-ons, cancel, invoices, portal (spec 4.4). */
export function subscriptionRoutes(deps: Deps): RouteSpec[] {
  const { billing, repos } = deps;

  async function out(tenantId: string) {
    const now = new Date();
    const { start, end } = monthBounds(now);
    const [row, units, days] = await Promise.all([
      repos.subscriptions.get(tenantId),
      repos.addonPurchases.units(tenantId, now),
      repos.usage.days(tenantId, start, end),
    ]);
    const conversations = days.filter((d) => d.metric === 'assistant_conversation').reduce((s, d) => s + d.value, 0);
    return toSubscriptionOut(row, units, conversations, deps.config.billing.defaultPlan);
  }
  const tenantOf = (ctx: Context): string => ctx.state.principal.tenantId;

  return [
    /** The subscription with add-on balances; read-only. */
    defineRoute({
      method: 'get',
      path: '/v1/billing/subscription',
      tag: 'billing',
      summary: 'Current subscription',
      auth: BILLING,
      responses: { 200: { description: 'subscription', schema: SubscriptionOut } },
      async handle(ctx) {
        ctx.body = await out(tenantOf(ctx));
      },
    }),
    /** Starts a provider checkout; the subscription appears when the provider's webhook is applied. Idempotency-Key. */
    defineRoute({
      method: 'post',
      path: '/v1/billing/checkout',
      tag: 'billing',
      summary: 'Start checkout',
      auth: BILLING,
      idempotent: true,
      body: CheckoutBody,
      responses: { 200: { description: 'where to send the customer', schema: RedirectUrl } },
      async handle(ctx, { body }) {
        ctx.body = await billing.checkout(tenantOf(ctx), body, baseUrl(deps, ctx));
      },
    }),
    /** Upgrade now with a prorated charge, or downgrade at the period end; bundles bought with it. Idempotency-Key. */
    defineRoute({
      method: 'post',
      path: '/v1/billing/change-plan',
      tag: 'billing',
      summary: 'Change plan (prorated)',
      auth: BILLING,
      idempotent: true,
      body: ChangePlanBody,
      responses: {
        200: { description: 'subscription', schema: SubscriptionOut },
        ...CHANGE_ERRORS,
      },
      async handle(ctx, { body }) {
        const key = ctx.get('idempotency-key') || `${ctx.state.requestId ?? ''}${Date.now()}`;
        await billing.changePlan(tenantOf(ctx), body, baseUrl(deps, ctx), key);
        ctx.body = await out(tenantOf(ctx));
      },
    }),
    /** One-time charge for add-on bundles (409 without a live subscription on a plan allowing it). Idempotency-Key. */
    defineRoute({
      method: 'post',
      path: '/v1/billing/addons/purchase',
      tag: 'billing',
      summary: 'Buy add-on bundles',
      auth: BILLING,
      idempotent: true,
      body: PurchaseBody,
      responses: {
        200: { description: 'subscription with balances', schema: SubscriptionOut },
        ...CHANGE_ERRORS,
      },
      async handle(ctx, { body }) {
        const key = ctx.get('idempotency-key') || `${ctx.state.requestId ?? ''}${Date.now()}`;
        await billing.purchaseAddon(tenantOf(ctx), body, baseUrl(deps, ctx), key);
        ctx.body = await out(tenantOf(ctx));
      },
    }),
    /** Cancels now or at the period end (the status stays until then). */
    defineRoute({
      method: 'post',
      path: '/v1/billing/cancel',
      tag: 'billing',
      summary: 'Cancel subscription',
      auth: BILLING,
      body: CancelBody,
      responses: {
        200: { description: 'subscription', schema: SubscriptionOut },
        ...CHANGE_ERRORS,
      },
      async handle(ctx, { body }) {
        await billing.cancel(tenantOf(ctx), body, baseUrl(deps, ctx));
        ctx.body = await out(tenantOf(ctx));
      },
    }),
    /** Invoices from the provider; read-only. */
    defineRoute({
      method: 'get',
      path: '/v1/billing/invoices',
      tag: 'billing',
      summary: 'List invoices',
      auth: BILLING,
      responses: { 200: { description: 'invoices, newest first', schema: z.array(InvoiceOut) } },
      async handle(ctx) {
        const sub = await repos.subscriptions.get(tenantOf(ctx));
        ctx.body = sub && sub.provider !== 'manual' ? await deps.payments.invoices({ tenantId: tenantOf(ctx), customerId: sub.provider_customer_id }) : [];
      },
    }),
    /** The provider's customer portal (card, invoices); read-only. */
    defineRoute({
      method: 'get',
      path: '/v1/billing/portal',
      tag: 'billing',
      summary: 'Customer portal URL',
      auth: BILLING,
      responses: { 200: { description: 'portal URL', schema: RedirectUrl } },
      async handle(ctx) {
        const sub = await repos.subscriptions.get(tenantOf(ctx));
        ctx.body = await deps.payments.portal({ tenantId: tenantOf(ctx), customerId: sub?.provider_customer_id ?? null, baseUrl: baseUrl(deps, ctx) });
      },
    }),
  ];
}
