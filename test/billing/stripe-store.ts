import type { Harness } from '../helpers/harness.js';
import { postStripeEvent } from './stripe-env.js';
import type { startStripeFake } from './stripe-fake.js';
import { applyBillingEvent } from '../../pipelines/billing/apply-billing-event.stage.js';

type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;

/**
 * A store subscribed to growth (monthly) at the Stripe fake under its own subscription id
 * (`sub_<name>`), through the webhook and the apply-billing-event stage as Stripe's event would.
 */
export async function stripeStore(h: Harness, fake: StripeFake, webhookSecret: string, name: string) {
  const tenant = await h.tenant(`Store ${name}`);
  const db = h.api.deps.db;
  const eventId = `evt_created_${name}`;
  const body = JSON.stringify({
    id: eventId,
    object: 'event',
    type: 'customer.subscription.created',
    created: Math.floor(Date.now() / 1000),
    data: { object: { ...fake.state.subscription, id: `sub_${name}`, metadata: { tenant_id: tenant.id, plan_code: 'growth' } } },
  });
  const res = await postStripeEvent(h.api, webhookSecret, body);
  if (res.status !== 200) throw new Error(`webhook: ${res.status}`);
  await applyBillingEvent.run({ data: { provider: 'stripe', eventId }, deps: h.api.deps } as never);
  return {
    tenant,
    api: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key: tenant.key, body, headers }),
    row: () => db('billing_subscriptions').where({ tenant_id: tenant.id }).first(),
    /** The store's add-on purchases recorded. */
    purchases: async () => Number((await db('billing_addon_purchases').where({ tenant_id: tenant.id }).count({ n: '*' }))[0].n),
  };
}

/** Holds every request the fake gets from now until the returned release is called (a slow Stripe). */
export function holdStripe(fake: StripeFake): () => void {
  let release!: () => void;
  fake.state.hold = new Promise<void>((r) => (release = r));
  return () => {
    fake.state.hold = null;
    release();
  };
}
