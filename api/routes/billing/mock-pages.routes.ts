import type { Context } from 'koa';
import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import { int, queryInt } from '../../http/schemas.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError, conflict } from '../../../shared/platform/errors.js';
import { findPlan, planPrice } from '../../../shared/billing/index.js';
import { MockPayments } from '../../../shared/engines/payments/index.js';
import { baseUrl } from './base-url.js';
import { page } from './mock-html.js';

const CheckoutParams = z.object({ checkout_id: z.string().max(64) });
const CheckoutAction = CheckoutParams.extend({ action: z.enum(['pay', 'trial', 'fail', 'cancel']) });
const PortalParams = z.object({ tenant_id: z.string().max(64) });
const PortalAction = PortalParams.extend({ action: z.enum(['renew', 'renew-fail', 'cancel-at-period-end', 'cancel-now', 'pause', 'resume']) });
const PortalQuery = z.object({ expires: queryInt(int()), token: z.string().max(128) });
const HTML = { 200: { description: 'HTML page' } };

/**
 * The mock provider's pages (BILLING_PROVIDER=mock): a person pays, fails a payment or cancels;
 * each action sends a signed webhook to /v1/billing/webhooks/mock, like a real provider.
 */
export function mockPageRoutes(deps: Deps): RouteSpec[] {
  const mock = () => {
    if (!(deps.payments instanceof MockPayments)) throw new AppError('route_not_found', 404, 'the mock provider is not in use');
    return deps.payments;
  };
  const html = (ctx: Context, body: string) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  };
  const portalCheck = (tenantId: string, q: { expires: number; token: string }) => {
    if (!mock().checkPortalToken(tenantId, q.expires, q.token)) throw new AppError('portal_link_invalid', 403, 'this portal link is invalid or expired');
  };

  return [
    /** The mock checkout page; read-only. */
    defineRoute({
      method: 'get',
      path: '/billing/mock/checkout/{checkout_id}',
      tag: 'billing',
      summary: 'Mock provider: checkout page',
      auth: null,
      params: CheckoutParams,
      responses: HTML,
      async handle(ctx, { params }) {
        const found = await mock().findCheckout(params.checkout_id);
        if (!found) throw new AppError('not_found', 404, 'no such checkout');
        const plan = findPlan(found.data.plan_code);
        const price = plan ? planPrice(plan, found.data.interval) : null;
        const actions =
          found.data.status !== 'open'
            ? []
            : [
                ['pay', 'Pay now'],
                ...(plan?.trial_days ? [['trial', `Start ${plan.trial_days}-day trial`]] : []),
                ['fail', 'Fail the payment'],
                ['cancel', 'Cancel'],
              ];
        html(
          ctx,
          page(
            `Checkout: ${plan?.name ?? found.data.plan_code}`,
            [
              `${((price ?? 0) / 100).toFixed(2)} ${plan?.currency ?? 'USD'} per ${found.data.interval}`,
              ...found.data.addons.map((a) => `+ ${a.quantity} x ${a.code}`),
              `status: ${found.data.status}`,
            ],
            actions.map(([a, label]) => [`/billing/mock/checkout/${params.checkout_id}/${a}`, label]),
          ),
        );
      },
    }),
    /**
     * A checkout action: stores the outcome, sends the signed webhook (event id fresh per action).
     * 409 `subscription_exists` while the store holds a subscription (nothing charged), 409
     * `checkout_not_open` for a checkout already paid, failed or canceled.
     */
    defineRoute({
      method: 'post',
      path: '/billing/mock/checkout/{checkout_id}/{action}',
      tag: 'billing',
      summary: 'Mock provider: pay, trial, fail or cancel a checkout',
      auth: null,
      params: CheckoutAction,
      responses: HTML,
      async handle(ctx, { params }) {
        const found = await mock().findCheckout(params.checkout_id);
        if (!found) throw new AppError('not_found', 404, 'no such checkout');
        const row = await deps.repos.subscriptions.get(found.tenantId);
        const ended = row?.provider === 'mock' && ['canceled', 'incomplete'].includes(row.status) ? row.provider_subscription_id : null;
        const trialDays = findPlan(found.data.plan_code)?.trial_days ?? 0;
        const outcome = await mock().completeCheckout(params.checkout_id, params.action, trialDays, baseUrl(deps, ctx), ended);
        if (outcome === 'subscription_exists')
          throw conflict('subscription_exists', 'this store already has a subscription: this checkout is closed and nothing was charged');
        if (outcome === 'not_open') throw conflict('checkout_not_open', 'this checkout is already paid, failed or canceled');
        html(ctx, page('Checkout', [`done: ${params.action}`], []));
      },
    }),
    /** The mock customer portal (a signed link from GET /v1/billing/portal); read-only. */
    defineRoute({
      method: 'get',
      path: '/billing/mock/portal/{tenant_id}',
      tag: 'billing',
      summary: 'Mock provider: customer portal',
      auth: null,
      params: PortalParams,
      query: PortalQuery,
      responses: HTML,
      async handle(ctx, { params, query }) {
        portalCheck(params.tenant_id, query);
        const sub = await mock().subscriptionOf(params.tenant_id);
        const invoices = await mock().invoices({ tenantId: params.tenant_id });
        const qs = `?expires=${query.expires}&token=${query.token}`;
        const actions = sub ? PortalAction.shape.action.options.map((a) => [`/billing/mock/portal/${params.tenant_id}/${a}${qs}`, a]) : [];
        html(
          ctx,
          page(
            'Customer portal',
            [
              sub ? `${sub.plan_code} (${sub.interval}): ${sub.status}${sub.cancel_at_period_end ? ', cancels at period end' : ''}` : 'no subscription',
              ...invoices.map((i) => `invoice ${i.id}: ${(i.total_minor / 100).toFixed(2)} ${i.currency} ${i.status}`),
            ],
            actions as Array<[string, string]>,
          ),
        );
      },
    }),
    /** A portal action on the tenant's mock subscription; sends the signed webhook. */
    defineRoute({
      method: 'post',
      path: '/billing/mock/portal/{tenant_id}/{action}',
      tag: 'billing',
      summary: 'Mock provider: renew, fail a renewal, cancel, pause or resume',
      auth: null,
      params: PortalAction,
      query: PortalQuery,
      responses: HTML,
      async handle(ctx, { params, query }) {
        portalCheck(params.tenant_id, query);
        const m = mock();
        const sub = await m.subscriptionOf(params.tenant_id);
        if (!sub) throw new AppError('not_found', 404, 'no subscription');
        const base = baseUrl(deps, ctx);
        const t = params.tenant_id;
        if (params.action === 'renew') await m.renew(t, sub.id, true, base);
        else if (params.action === 'renew-fail') await m.renew(t, sub.id, false, base);
        else if (params.action === 'cancel-at-period-end') await m.setStatus(t, sub.id, { cancel_at_period_end: true }, 'subscription.updated', base);
        else if (params.action === 'cancel-now') await m.setStatus(t, sub.id, { status: 'canceled' }, 'subscription.deleted', base);
        else if (params.action === 'pause') await m.setStatus(t, sub.id, { status: 'paused' }, 'subscription.paused', base);
        else await m.setStatus(t, sub.id, { status: 'active' }, 'subscription.resumed', base);
        html(ctx, page('Customer portal', [`done: ${params.action}`], []));
      },
    }),
  ];
}
