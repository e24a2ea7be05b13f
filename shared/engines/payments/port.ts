/** A billing interval. */
export type Interval = 'month' | 'year';

/** A provider's view of one subscription, in our terms (status still raw). */
export interface SubscriptionSnapshot {
  tenantId: string;
  planCode: string;
  interval: Interval;
  rawStatus: string;
  customerId: string | null;
  subscriptionId: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  trialEndsAt: Date | null;
  cancelAtPeriodEnd: boolean;
  /** The credit balance the provider holds for the subscription (the mock reports it; Stripe and Paddle keep theirs: undefined). */
  creditMinor?: number;
}

/** An invoice as the spec's InvoiceOut shows it. */
export interface Invoice {
  id: string;
  status: string;
  currency: string;
  total_minor: number;
  tax_minor: number;
  issued_at: string;
  hosted_url: string | null;
  pdf_url: string | null;
  paid_at: string | null;
}

/** A verified provider event, normalized; `type` stays the provider's own. */
export interface BillingEvent {
  id: string;
  type: string;
  occurredAt: Date;
  tenantId: string | null;
  /** Present when the event carries a subscription's state. */
  subscription?: SubscriptionSnapshot;
  /** Add-on bundles paid with a completed checkout. */
  addons?: Array<{ code: string; quantity: number }>;
  /** Present when the event completes or expires one of our checkouts. */
  checkout?: CheckoutEvent;
}

/** A checkout paid (`completed`, with the subscription it made) or expired by the provider itself. */
export interface CheckoutEvent {
  /** The provider's checkout id (Stripe Checkout Session, Paddle transaction, mock checkout). */
  id: string;
  status: 'completed' | 'expired';
  subscriptionId: string | null;
}

/**
 * What expiring a checkout found: `expired` now; `already_expired` (or canceled);
 * `already_completed` (paid before the expire landed: its completion event settles it); `missing`
 * (the provider has no such checkout); `not_cancelable` (Paddle cancels only ready or billed
 * transactions, and a checkout opened for a store with no Paddle customer yet stays a draft until
 * the shopper gives their details: it stays payable, and a payment of it is a late checkout, which
 * apply-event accepts as the store's latest decision). Each means nothing more can be done there.
 */
export type CheckoutClose = 'expired' | 'already_expired' | 'already_completed' | 'missing' | 'not_cancelable';

export interface CheckoutInput {
  tenantId: string;
  planCode: string;
  interval: Interval;
  addons: Array<{ code: string; quantity: number }>;
  /** The add-on bundles at the catalog's prices (the mock charges them with the checkout; Stripe and Paddle use their own prices). */
  addonsMinor: number;
  customerId: string | null;
  /** Where the service answers (the mock's pages and its webhook deliveries use it). */
  baseUrl: string;
}

export interface ChangeInput {
  tenantId: string;
  subscriptionId: string;
  customerId: string | null;
  planCode: string;
  interval: Interval;
  /** Charged now (minor units), already prorated by us; a credit balance the provider holds is drawn first. */
  chargeNowMinor: number;
  /** Unused time of the old term left over after the charge: added to the credit balance the next invoices draw on. */
  creditMinor: number;
  /**
   * false: the change waits for the period end (a downgrade, applied by the renewal); a change
   * back to the current plan and interval drops a waiting one. During a trial a change is `now`
   * and the trial keeps its end.
   */
  now: boolean;
  /** The subscription is in its trial: the plan change itself bills nothing now. */
  trialing: boolean;
  /**
   * Add-on bundles bought with the change, at the catalog's prices (already in `chargeNowMinor`):
   * each provider charges them once, now, whether or not the plan change bills now.
   */
  addons: ChangeAddon[];
  /** The request's key: the client's retry of the same change does not charge the add-ons again. */
  idempotencyKey: string;
  baseUrl: string;
}

/** One add-on line of a plan change: price key `addon:<code>`, bundles, and its catalog amount. */
export interface ChangeAddon {
  code: string;
  quantity: number;
  amountMinor: number;
  currency: string;
  description: string;
}

/**
 * A payment provider (Stripe, Paddle, or the mock that runs on one box). Webhook signatures are
 * checked apart (signatures.ts), as a delivery names its provider in the URL.
 */
export interface PaymentProvider {
  name: 'stripe' | 'paddle' | 'mock';
  /** Opens a checkout; `checkoutId` is the provider's id for it (what its completion event names). */
  checkout(input: CheckoutInput): Promise<{ url: string; checkoutId: string }>;
  /**
   * Closes an open checkout so it can no longer be paid (another one of the store completed).
   * Idempotent: a checkout already expired, completed or unknown answers so instead of throwing;
   * anything else (provider down, 429, bad key) throws, for the job to retry.
   */
  expireCheckout(input: { tenantId: string; checkoutId: string }): Promise<CheckoutClose>;
  portal(input: { tenantId: string; customerId: string | null; baseUrl: string }): Promise<{ url: string }>;
  /** Returns the credit balance the provider now holds for the subscription when it keeps one we mirror (the mock); Stripe and Paddle keep theirs. */
  changePlan(input: ChangeInput): Promise<{ creditMinor?: number }>;
  /** A one-time charge on the customer's saved payment method; returns the provider's charge id. */
  charge(input: {
    tenantId: string;
    customerId: string | null;
    subscriptionId: string | null;
    amountMinor: number;
    currency: string;
    description: string;
    /** The catalog item charged: price key (`addon:<code>`) and quantity, for providers that charge by price id. */
    item: { key: string; quantity: number };
    baseUrl: string;
    idempotencyKey: string;
  }): Promise<{ providerRef: string }>;
  /** `alreadyCanceled`: the provider had canceled the subscription before (its event not applied yet): canceled now, whatever was asked. */
  cancel(input: { tenantId: string; subscriptionId: string; atPeriodEnd: boolean; baseUrl: string }): Promise<{ alreadyCanceled: boolean } | void>;
  invoices(input: { tenantId: string; customerId: string | null }): Promise<Invoice[]>;
  /** The provider's current state of a subscription (daily reconcile); null when it has none. */
  fetch(input: { tenantId: string; subscriptionId: string }): Promise<SubscriptionSnapshot | null>;
  /** Turns a verified webhook body into an event. */
  parseEvent(body: Buffer): BillingEvent;
}
