import type Stripe from 'stripe';
import { stripeSubscription, parseStripeEvent } from './stripe-events.js';
import type { BillingEvent, CheckoutClose, Invoice, PaymentProvider, SubscriptionSnapshot } from './port.js';

export interface StripeOptions {
  apiKey: string;
  /** Another API host (tests: a local server answering like Stripe). */
  apiUrl?: string;
  /** Price ids per `plan:interval` and per `addon:<code>`. */
  prices: Record<string, string>;
  /** The bound on each request (the SDK retries a timed-out one twice: 3 tries at most). */
  timeoutMs?: number;
}

const iso = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString() : null);

/**
 * Stripe through the official `stripe` package: Checkout Sessions (mode subscription; tenant and
 * plan in the subscription's metadata), Billing Portal sessions, subscription updates (Stripe
 * prorates upgrades and invoices them at once), one-off invoices for add-ons, invoices.
 */
export class StripePayments implements PaymentProvider {
  readonly name = 'stripe' as const;
  private loaded?: Promise<Stripe>;

  constructor(private opts: StripeOptions) {}

  /** The SDK loads on first use (half a second to import): processes that never call Stripe never pay it. */
  private api(): Promise<Stripe> {
    this.loaded ??= import('stripe').then(({ default: StripeSdk }) => {
      const u = this.opts.apiUrl ? new URL(this.opts.apiUrl) : null;
      return new StripeSdk(this.opts.apiKey, {
        ...(u ? { host: u.hostname, port: u.port || (u.protocol === 'https:' ? 443 : 80), protocol: u.protocol === 'http:' ? 'http' : 'https' } : {}),
        maxNetworkRetries: 2,
        timeout: this.opts.timeoutMs ?? 10_000,
      });
    });
    return this.loaded;
  }

  private price(key: string): string {
    const id = this.opts.prices[key];
    if (!id) throw new Error(`STRIPE_PRICES has no price for ${key}`);
    return id;
  }

  async checkout(input: Parameters<PaymentProvider['checkout']>[0]): Promise<{ url: string; checkoutId: string }> {
    const metadata = { tenant_id: input.tenantId, plan_code: input.planCode };
    const session = await (
      await this.api()
    ).checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: input.tenantId,
      ...(input.customerId ? { customer: input.customerId } : {}),
      line_items: [
        { price: this.price(`${input.planCode}:${input.interval}`), quantity: 1 },
        ...input.addons.map((a) => ({ price: this.price(`addon:${a.code}`), quantity: a.quantity })),
      ],
      subscription_data: { metadata },
      metadata: { ...metadata, addons: JSON.stringify(input.addons) },
      success_url: `${input.baseUrl}/v1/billing/subscription`,
      cancel_url: `${input.baseUrl}/v1/billing/plans`,
    });
    if (!session.url) throw new Error('Stripe returned a checkout session without a url');
    return { url: session.url, checkoutId: session.id };
  }

  /**
   * `POST /v1/checkout/sessions/{id}/expire`. Stripe expires only `open` sessions and answers any
   * other with a 400 (no error code of its own): the session is then read back, and `expired` or
   * `complete` is the answer; a 404 is `missing`.
   */
  async expireCheckout(input: { tenantId: string; checkoutId: string }): Promise<CheckoutClose> {
    const api = await this.api();
    try {
      await api.checkout.sessions.expire(input.checkoutId);
      return 'expired';
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 404) return 'missing';
      if (status !== 400) throw err;
      const session = await api.checkout.sessions.retrieve(input.checkoutId);
      if (session.status === 'expired') return 'already_expired';
      if (session.status === 'complete') return 'already_completed';
      throw err;
    }
  }

  async portal(input: { customerId: string | null; baseUrl: string }): Promise<{ url: string }> {
    if (!input.customerId) throw new Error('no Stripe customer yet');
    const session = await (
      await this.api()
    ).billingPortal.sessions.create({ customer: input.customerId, return_url: `${input.baseUrl}/v1/billing/subscription` });
    return { url: session.url };
  }

  /**
   * Upgrades: Stripe prorates and invoices now (a credit left over goes to the customer's Stripe
   * balance, drawn by the next invoices). Downgrades: the new price with no proration (billed
   * from the next renewal). Add-on bundles bought with the change are charged now, once: on an
   * upgrade as `add_invoice_items` of the invoice the update makes; otherwise (a downgrade, the
   * same plan, a trial: the update invoices nothing now) as a one-off invoice like `charge`. Both
   * carry idempotency keys from the request's, so its retry charges nothing again.
   */
  async changePlan(input: Parameters<PaymentProvider['changePlan']>[0]): Promise<{ creditMinor?: number }> {
    const api = await this.api();
    const sub = await api.subscriptions.retrieve(input.subscriptionId);
    const item = sub.items.data[0];
    const addons = input.addons.map((a) => ({ price: this.price(`addon:${a.code}`), quantity: a.quantity }));
    const invoicedNow = input.now && !input.trialing;
    const withAddons = invoicedNow && addons.length > 0;
    await api.subscriptions.update(
      input.subscriptionId,
      {
        items: [{ id: item.id, price: this.price(`${input.planCode}:${input.interval}`) }],
        proration_behavior: input.now ? 'always_invoice' : 'none',
        metadata: { tenant_id: input.tenantId, plan_code: input.planCode },
        ...(withAddons ? { add_invoice_items: addons } : {}),
      },
      withAddons ? { idempotencyKey: `${input.idempotencyKey}-change` } : {},
    );
    if (!invoicedNow && addons.length > 0) {
      if (!input.customerId) throw new Error('no Stripe customer yet');
      const key = `${input.idempotencyKey}-change-addons`;
      for (const [i, a] of addons.entries()) {
        await api.invoiceItems.create(
          { customer: input.customerId, pricing: { price: a.price }, quantity: a.quantity, description: input.addons[i].description },
          { idempotencyKey: `${key}-item-${i}` },
        );
      }
      await this.invoiceNow(input.tenantId, input.customerId, key);
    }
    return {};
  }

  /** Invoices the customer's pending invoice items at once and pays it with the saved method. */
  private async invoiceNow(tenantId: string, customerId: string, key: string): Promise<string> {
    const api = await this.api();
    const invoice = await api.invoices.create(
      { customer: customerId, pending_invoice_items_behavior: 'include', metadata: { tenant_id: tenantId } },
      { idempotencyKey: `${key}-invoice` },
    );
    const paid = await api.invoices.pay(invoice.id!, {}, { idempotencyKey: `${key}-pay` });
    return paid.id!;
  }

  async charge(input: Parameters<PaymentProvider['charge']>[0]): Promise<{ providerRef: string }> {
    if (!input.customerId) throw new Error('no Stripe customer yet');
    const key = input.idempotencyKey;
    await (
      await this.api()
    ).invoiceItems.create(
      { customer: input.customerId, amount: input.amountMinor, currency: input.currency.toLowerCase(), description: input.description },
      { idempotencyKey: `${key}-item` },
    );
    return { providerRef: await this.invoiceNow(input.tenantId, input.customerId, key) };
  }

  /**
   * Stripe refuses both on a subscription it has canceled already (a cancel the store made elsewhere,
   * or dunning, whose webhook has not reached us): the cancel 404 `resource_missing`, the update 400
   * "A canceled subscription can only update its cancellation_details and metadata". The store's
   * wish is then already true: answered `alreadyCanceled` once the subscription reads canceled.
   */
  async cancel(input: Parameters<PaymentProvider['cancel']>[0]): Promise<{ alreadyCanceled: boolean }> {
    const api = await this.api();
    try {
      if (input.atPeriodEnd) await api.subscriptions.update(input.subscriptionId, { cancel_at_period_end: true });
      else await api.subscriptions.cancel(input.subscriptionId);
      return { alreadyCanceled: false };
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status !== 400 && status !== 404) throw err;
      const current = await api.subscriptions.retrieve(input.subscriptionId).catch(() => null);
      if (current?.status === 'canceled') return { alreadyCanceled: true };
      throw err;
    }
  }

  async invoices(input: { customerId: string | null }): Promise<Invoice[]> {
    if (!input.customerId) return [];
    const list = await (await this.api()).invoices.list({ customer: input.customerId, limit: 24 });
    return list.data.map((i) => {
      const raw = i as unknown as { tax?: number | null; total_taxes?: Array<{ amount: number }> };
      return {
        id: i.id!,
        status: i.status ?? 'draft',
        currency: i.currency.toUpperCase(),
        total_minor: i.total,
        tax_minor: raw.tax ?? (raw.total_taxes ?? []).reduce((s, t) => s + t.amount, 0),
        issued_at: iso(i.created)!,
        hosted_url: i.hosted_invoice_url ?? null,
        pdf_url: i.invoice_pdf ?? null,
        paid_at: iso(i.status_transitions?.paid_at),
      };
    });
  }

  async fetch(input: { tenantId: string; subscriptionId: string }): Promise<SubscriptionSnapshot | null> {
    try {
      const sub = await (await this.api()).subscriptions.retrieve(input.subscriptionId);
      // The row we hold names the tenant when the subscription's metadata does not.
      return stripeSubscription({ ...sub, metadata: { tenant_id: input.tenantId, ...sub.metadata } }, this.opts.prices) ?? null;
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return null;
      throw err;
    }
  }

  parseEvent(body: Buffer): BillingEvent {
    return parseStripeEvent(body, this.opts.prices);
  }
}
