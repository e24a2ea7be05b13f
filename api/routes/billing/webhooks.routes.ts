import { z } from 'zod';
import type { Context } from 'koa';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError } from '../../../shared/platform/errors.js';
import { applyBillingEventJob, findPlan } from '../../../shared/billing/index.js';
import {
  parseMockEvent,
  parsePaddleEvent,
  parseStripeEvent,
  SignatureError,
  verifyPaddle,
  verifyStripeStyle,
  type BillingEvent,
} from '../../../shared/engines/payments/index.js';
import { ProviderParam, WebhookAnswer } from './billing.schema.js';

export const WEBHOOKS_PREFIX = '/v1/billing/webhooks/';

type Provider = 'stripe' | 'paddle' | 'mock';

/** Checks the signature over the raw bytes (throws SignatureError), then parses. */
function verifier(deps: Deps, provider: Provider): ((ctx: Context, raw: Buffer) => BillingEvent) | null {
  const b = deps.config.billing;
  if (provider === 'stripe') {
    const secret = b.stripe.webhookSecret;
    return secret
      ? (ctx, raw) => (verifyStripeStyle(ctx.get('stripe-signature') || undefined, raw, secret, new Date(), 300), parseStripeEvent(raw, b.stripe.prices))
      : null;
  }
  if (provider === 'paddle') {
    const secret = b.paddle.webhookSecret;
    return secret
      ? (ctx, raw) => (
          verifyPaddle(ctx.get('paddle-signature') || undefined, raw, secret, new Date(), b.paddle.toleranceS),
          parsePaddleEvent(raw, b.paddle.prices)
        )
      : null;
  }
  return (ctx, raw) => (verifyStripeStyle(ctx.get('mock-signature') || undefined, raw, b.mockWebhookSecret, new Date(), 300), parseMockEvent(raw));
}

/** Payment provider webhooks: signature checked before anything is read, then stored once and applied in a stage. */
export function webhookRoutes(deps: Deps): RouteSpec[] {
  return [
    /**
     * Stores the event under (provider, event id) and queues `apply-billing-event` (job id from the
     * same key). A redelivery answers 200 `{received, duplicate: true}` and changes nothing. A bad,
     * stale or missing signature: 400, nothing stored. A subscription on a plan the catalog does
     * not have is stored and logged; the stage leaves it unapplied (`plan_unknown`).
     */
    defineRoute({
      method: 'post',
      path: '/v1/billing/webhooks/{provider}',
      tag: 'billing',
      summary: 'Payment provider webhook (signature checked, no key)',
      auth: null,
      params: ProviderParam,
      // The provider owns the URL it calls: a parameter it adds is not ours to refuse (the signature covers the body only).
      query: z.looseObject({}),
      responses: { 200: { description: 'acknowledged', schema: WebhookAnswer } },
      async handle(ctx, { params }) {
        const provider = params.provider as Provider;
        const check = verifier(deps, provider);
        if (!check) throw new AppError('webhook_not_configured', 404, `no webhook secret is configured for ${provider}`);
        const raw: Buffer = ctx.state.rawBody ?? Buffer.alloc(0);
        let event: BillingEvent;
        try {
          event = check(ctx, raw);
        } catch (err) {
          if (err instanceof SignatureError) throw new AppError(err.code, 400, signatureMessage(err.code));
          throw new AppError('webhook_payload_invalid', 400, 'the signed body is not an event of this provider');
        }
        const plan = event.subscription?.planCode;
        if (plan !== undefined && !findPlan(plan)) {
          deps.logger.error('billing event names a plan not in the catalog: stored, not applied', {
            provider,
            id: event.id,
            plan_code: plan,
            tenant: event.tenantId,
          });
        }
        const fresh = await deps.repos.billingEvents.insert(provider, event);
        if (fresh) {
          // Stored first: a lost enqueue is found by reconcile-billing (unapplied events), never lost.
          await deps.queues
            .enqueue(applyBillingEventJob, { provider, eventId: event.id })
            .catch((err) => deps.logger.warn('billing event not queued', { err, provider, id: event.id }));
        }
        ctx.body = { received: true, duplicate: !fresh };
      },
    }),
  ];
}

function signatureMessage(code: SignatureError['code']): string {
  if (code === 'signature_missing') return 'the provider signature header is missing';
  if (code === 'signature_stale') return 'the signature timestamp is outside the tolerance';
  return 'the signature does not match the body';
}
