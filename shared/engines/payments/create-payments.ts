import type { Knex } from 'knex';
import type { Config } from '../../platform/config.js';
import type { Interval, PaymentProvider } from './port.js';
import { MockPayments } from './mock.payments.js';

/** The configured provider (BILLING_PROVIDER; `mock` by default, which runs on one box). */
export function createPayments(config: Config, db: Knex, priceOf: (planCode: string, interval: Interval) => number | null): PaymentProvider {
  switch (config.billing.provider) {
    default:
      return new MockPayments(db, config.billing.mockWebhookSecret, priceOf);
  }
}
