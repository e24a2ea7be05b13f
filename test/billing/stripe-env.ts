import { createHmac } from 'node:crypto';
import { setup, type Api, type Reply } from '../helpers/harness.js';
import { startStripeFake } from './stripe-fake.js';

/** The plan and add-on prices the Stripe tests configure (STRIPE_PRICES). */
const PRICES = 'growth:month=price_growth_m,scale:month=price_scale_m,addon:assistant_conversations_500=price_conv500';

/** The environment of a service billing through the Stripe fake at `url` (startStripeFake). */
export const stripeEnv = (url: string, apiKey: string, webhookSecret: string): Record<string, string> => ({
  BILLING_PROVIDER: 'stripe',
  STRIPE_API_KEY: apiKey,
  STRIPE_API_URL: url,
  STRIPE_WEBHOOK_SECRET: webhookSecret,
  BILLING_DEFAULT_PLAN: 'free',
  STRIPE_PRICES: PRICES,
});

/** Posts a Stripe event (its JSON body) to the webhook, signed as Stripe signs: `t=<ts>,v1=<hmac of "ts.body">`. */
export function postStripeEvent(api: Api, webhookSecret: string, body: string): Promise<Reply> {
  const ts = Math.floor(Date.now() / 1000);
  const sig = createHmac('sha256', webhookSecret).update(`${ts}.${body}`).digest('hex');
  return api.call('POST', '/v1/billing/webhooks/stripe', {
    rawBody: body,
    headers: { 'content-type': 'application/json', 'stripe-signature': `t=${ts},v1=${sig}` },
  });
}

/**
 * A service billing through a Stripe fake of its own (API key and webhook secret named after
 * `name`), both closed when `t` ends. `env` adds to the service's environment.
 */
export async function stripeService(t: { teardown(fn: () => Promise<void>): void }, name: string, env: Record<string, string> = {}) {
  const apiKey = `sk_test_fake_${name}`;
  const webhookSecret = `whsec_${name}_0123`;
  const fake = await startStripeFake(apiKey);
  const h = await setup({ ...stripeEnv(fake.url, apiKey, webhookSecret), ...env });
  t.teardown(async () => {
    await h.close();
    await fake.close();
  });
  return { fake, h, webhookSecret };
}
