import type { Harness } from '../helpers/harness.js';
import { mockSubscriptionEvent } from './mock-event.js';
import { applyBillingEvent } from '../../pipelines/billing/apply-billing-event.stage.js';
import { Notices } from '../../shared/platform/notices.js';

/**
 * A store fed mock provider events through the webhook and applied by calling the
 * apply-billing-event stage (no worker), as the job would: two open checkouts (`chk_first_<k>`
 * on growth, `chk_stale_<k>` on scale), a receiver of subscription changes, and the
 * `subscription` notices the stage published (the real class over the real Redis). `k` is in all
 * of the store's ids.
 */
export async function eventStore(h: Harness, secret: string, k: string, period: { current_period_start: number; current_period_end: number }) {
  const tenant = await h.tenant();
  const receiver = await h.api.call('POST', '/v1/webhooks', { key: tenant.key, body: { url: 'http://127.0.0.1:9/hooks', kinds: ['subscription.changed'] } });
  if (receiver.status !== 201) throw new Error(`receiver: ${receiver.status}`);
  for (const [role, plan] of [
    ['first', 'growth'],
    ['stale', 'scale'],
  ]) {
    await h.api.deps.repos.checkouts.insert({
      id: `chk_${role}_${k}`,
      tenant_id: tenant.id,
      provider: 'mock',
      provider_checkout_id: `mcs_${role}_${k}`,
      plan_code: plan,
      interval: 'month',
      base_url: 'http://127.0.0.1',
    });
  }
  const notices = new Notices(h.api.deps.redis, h.config.queuePrefix);
  const published: string[] = [];
  notices.on('subscription', (id) => published.push(id));
  const deps = { ...h.api.deps, notices };
  /** Stores a signed event (the customer is the store's; the period `period` unless `subscription` says otherwise). */
  const deliver = async (id: string, type: string, created: number, subscription: Record<string, unknown>, data: Record<string, unknown> = {}) => {
    const sub = { customer: `mcus_${k}`, ...period, ...subscription };
    const res = await h.api.call(
      'POST',
      '/v1/billing/webhooks/mock',
      mockSubscriptionEvent(secret, { id, type, created, tenantId: tenant.id, subscription: sub, data }),
    );
    if (res.status !== 200) throw new Error(`webhook: ${res.status}`);
  };
  /** One run of the stage on a stored event; its outcome. */
  const apply = async (eventId: string) =>
    ((await applyBillingEvent.run({ data: { provider: 'mock', eventId }, deps } as never)) as { outcome: string }).outcome;
  return { k, tenant, published, deliver, apply };
}

export type EventStore = Awaited<ReturnType<typeof eventStore>>;
