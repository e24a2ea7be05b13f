import type { Knex } from 'knex';
import type { Config } from '../../platform/config.js';
import type { Interval, PaymentProvider } from './port.js';
import { MockPayments } from './mock.payments.js';
import { StripePayments } from './stripe.payments.js';
import { PaddlePayments } from './paddle.payments.js';

/** The configured provider (BILLING_PROVIDER; `mock` by default, which runs on one box). */
export function createPayments(config: Config, db: Knex, priceOf: (planCode: string, interval: Interval) => number | null): PaymentProvider {
  const b = config.billing;
  // Each HTTP request to the provider is bounded: a change holds its store's lock through it.
  const timeoutMs = b.changes.providerTimeoutMs;
  switch (b.provider) {
    case 'stripe':
      if (!b.stripe.apiKey) throw new Error('BILLING_PROVIDER=stripe needs STRIPE_API_KEY');
      return new StripePayments({ apiKey: b.stripe.apiKey, apiUrl: b.stripe.apiUrl, prices: b.stripe.prices, timeoutMs });
    case 'paddle':
      if (!b.paddle.apiKey) throw new Error('BILLING_PROVIDER=paddle needs PADDLE_API_KEY');
      // A charge's mark in custom_data answers a retry of its Idempotency-Key as long as the key is honoured.
      return new PaddlePayments({
        apiKey: b.paddle.apiKey,
        apiUrl: b.paddle.apiUrl,
        prices: b.paddle.prices,
        timeoutMs,
        markRetentionMs: config.idempotencyTtlHours * 3600_000,
      });
    default:
      return new MockPayments(db, config.billing.mockWebhookSecret, priceOf);
  }
}
