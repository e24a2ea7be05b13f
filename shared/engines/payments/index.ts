/** Payment providers (PaymentProvider port): mock (default), Stripe, Paddle; webhook signature checks. */
export * from './port.js';
export * from './signatures.js';
export { MockPayments, type CheckoutOutcome } from './mock.payments.js';
export { parseMockEvent } from './mock-events.js';
export { createPayments } from './create-payments.js';
export { parseStripeEvent, planOfPrice } from './stripe-events.js';
export { parsePaddleEvent } from './paddle-events.js';
export { isProviderUnreachable } from './unreachable.js';
