import { signStripeStyle } from '../../shared/engines/payments/index.js';

/**
 * A subscription event as the mock provider delivers it, signed with `secret`: the request options of
 * `POST /v1/billing/webhooks/mock`. The subscription is an active monthly growth one unless `subscription` says otherwise;
 * `data` adds to the event's data (a `checkout` it completes, `addons` bought with it).
 */
export function mockSubscriptionEvent(
  secret: string,
  e: { id: string; type: string; created?: number; tenantId: string; subscription?: Record<string, unknown>; data?: Record<string, unknown> },
): { rawBody: string; headers: Record<string, string> } {
  const now = Math.floor(Date.now() / 1000);
  const rawBody = JSON.stringify({
    id: e.id,
    type: e.type,
    created: e.created ?? now,
    data: {
      tenant_id: e.tenantId,
      subscription: {
        id: 'msub_test',
        customer: 'mcus_test',
        plan_code: 'growth',
        interval: 'month',
        status: 'active',
        current_period_start: now,
        current_period_end: now + 30 * 86400,
        trial_end: null,
        cancel_at_period_end: false,
        ...e.subscription,
      },
      ...e.data,
    },
  });
  return { rawBody, headers: { 'content-type': 'application/json', 'mock-signature': signStripeStyle(rawBody, secret) } };
}
