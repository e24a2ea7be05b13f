import type { Knex } from 'knex';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { newId } from '../../platform/ids.js';
import { signStripeStyle } from './signatures.js';
import { addInterval, mockSnapshot, parseMockEvent, type MockSubscription } from './mock-events.js';
import type { BillingEvent, CheckoutClose, Interval, Invoice, PaymentProvider, SubscriptionSnapshot } from './port.js';

export type { MockSubscription } from './mock-events.js';

export interface MockCheckout {
  plan_code: string;
  interval: Interval;
  addons: Array<{ code: string; quantity: number }>;
  /** The add-on bundles' price, charged with the checkout (absent on checkouts stored before it was: 0). */
  addons_minor?: number;
  /** `expired`: the service expired it (another checkout of the store completed), or the store held a subscription when it was paid. */
  status: 'open' | 'paid' | 'failed' | 'canceled' | 'expired';
  customer: string | null;
}

/** What completing a checkout did: `subscription_exists` and `not_open` changed nothing and charged nothing. */
export type CheckoutOutcome = 'done' | 'subscription_exists' | 'not_open';

/** Subscriptions the mock still bills or can resume: while a store holds one, no checkout of it completes. */
const HELD = ['trialing', 'active', 'past_due', 'paused'];

type Delivery = [type: string, data: Record<string, unknown>];

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * The mock provider: checkout and portal are pages the service serves (api/routes/billing/
 * mock-pages.routes.ts); every action there, and every API call here, sends a webhook signed like
 * Stripe's (`Mock-Signature: t=...,v1=...`, HMAC-SHA256 of `t.body` with MOCK_WEBHOOK_SECRET) to
 * the service's own `/v1/billing/webhooks/mock`, so the flow is the one a real provider drives.
 */
export class MockPayments implements PaymentProvider {
  readonly name = 'mock' as const;

  constructor(
    private db: Knex,
    private secret: string,
    /** The price of a plan's period in minor units (the mock's price list is the service's catalog). */
    private priceOf: (planCode: string, interval: Interval) => number | null,
    private send: typeof fetch = fetch,
  ) {}

  async checkout(input: Parameters<PaymentProvider['checkout']>[0]): Promise<{ url: string; checkoutId: string }> {
    const id = newId('mcs');
    const data: MockCheckout = {
      plan_code: input.planCode,
      interval: input.interval,
      addons: input.addons,
      addons_minor: input.addonsMinor,
      status: 'open',
      customer: input.customerId,
    };
    await this.db('billing_mock_objects').insert({ id, kind: 'checkout', tenant_id: input.tenantId, data });
    return { url: `${input.baseUrl}/billing/mock/checkout/${id}`, checkoutId: id };
  }

  /** Expires an open checkout, under the same lock as its completion (so an expire and a payment never both win). */
  async expireCheckout(input: { tenantId: string; checkoutId: string }): Promise<CheckoutClose> {
    return this.db.transaction(async (trx) => {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`mock-checkout:${input.tenantId}`]);
      const row = await trx('billing_mock_objects').where({ id: input.checkoutId, kind: 'checkout', tenant_id: input.tenantId }).first();
      if (!row) return 'missing';
      const data: MockCheckout = row.data;
      if (data.status === 'expired' || data.status === 'canceled') return 'already_expired';
      if (data.status !== 'open') return 'already_completed';
      await trx('billing_mock_objects')
        .where({ id: row.id })
        .update({ data: { ...data, status: 'expired' } });
      return 'expired';
    });
  }

  async portal(input: { tenantId: string; baseUrl: string }): Promise<{ url: string }> {
    const expires = unix(new Date()) + 3600;
    return { url: `${input.baseUrl}/billing/mock/portal/${input.tenantId}?expires=${expires}&token=${this.portalToken(input.tenantId, expires)}` };
  }

  /** The portal link is a bearer link: an HMAC of tenant and expiry, valid an hour. */
  portalToken(tenantId: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`portal.${tenantId}.${expires}`).digest('hex');
  }

  checkPortalToken(tenantId: string, expires: number, token: string): boolean {
    const want = Buffer.from(this.portalToken(tenantId, expires));
    const got = Buffer.from(token);
    return expires > unix(new Date()) && want.length === got.length && timingSafeEqual(want, got);
  }

  /** Now: the new plan (a new interval starts a new period, except during a trial). Else: waits for the renewal. A change now onto the current plan is a retry: no charge. */
  async changePlan(input: Parameters<PaymentProvider['changePlan']>[0]): Promise<{ creditMinor: number }> {
    const sub = await this.subscription(input.subscriptionId);
    if (!sub) throw new Error(`mock subscription ${input.subscriptionId} not found`);
    const balance = sub.credit_minor ?? 0;
    // Already on the plan and interval asked for now: the retry of a change whose result the
    // service lost (its own write failed after this call). Nothing changes, nothing is charged
    // again, as Stripe and Paddle charge nothing for an update onto the price a subscription has.
    if (input.now && input.planCode === sub.plan_code && input.interval === sub.interval) return { creditMinor: balance };
    // The add-on bundles bought with the change are in chargeNowMinor; a retry of the same request
    // (a downgrade or add-ons only, which the early return above does not cover) charges them once.
    const addonsMinor = input.addons.reduce((s, a) => s + a.amountMinor, 0);
    const key = `change-${input.idempotencyKey}`;
    const addonsDone = addonsMinor > 0 && (await this.chargeOf(input.tenantId, key)) !== undefined;
    const due = input.chargeNowMinor - (addonsDone ? addonsMinor : 0);
    const drawn = Math.min(balance, due);
    if (addonsMinor > 0 && !addonsDone)
      await this.db('billing_mock_objects').insert({ id: newId('mch'), kind: 'charge', tenant_id: input.tenantId, data: { key, amount: addonsMinor } });
    if (due > drawn) await this.invoice(input.tenantId, due - drawn, 'paid');
    const credit_minor = balance - drawn + input.creditMinor;
    if (!input.now) {
      const back = input.planCode === sub.plan_code && input.interval === sub.interval;
      const pending = back ? null : { plan_code: input.planCode, interval: input.interval };
      await this.update(input.tenantId, { ...sub, pending, credit_minor }, 'subscription.updated', input.baseUrl);
      return { creditMinor: credit_minor };
    }
    const restart = sub.interval !== input.interval && sub.status !== 'trialing';
    const now = new Date();
    await this.update(
      input.tenantId,
      {
        ...sub,
        plan_code: input.planCode,
        interval: input.interval,
        pending: null,
        credit_minor,
        current_period_start: restart ? unix(now) : sub.current_period_start,
        current_period_end: restart ? unix(addInterval(now, input.interval)) : sub.current_period_end,
      },
      'subscription.updated',
      input.baseUrl,
    );
    return { creditMinor: credit_minor };
  }

  async charge(input: Parameters<PaymentProvider['charge']>[0]): Promise<{ providerRef: string }> {
    const existing = await this.chargeOf(input.tenantId, input.idempotencyKey);
    if (existing) return { providerRef: existing.id };
    const id = newId('mch');
    await this.db('billing_mock_objects').insert({
      id,
      kind: 'charge',
      tenant_id: input.tenantId,
      data: { key: input.idempotencyKey, amount: input.amountMinor },
    });
    await this.invoice(input.tenantId, input.amountMinor, 'paid');
    return { providerRef: id };
  }

  async cancel(input: Parameters<PaymentProvider['cancel']>[0]): Promise<void> {
    const sub = await this.subscription(input.subscriptionId);
    if (!sub) throw new Error(`mock subscription ${input.subscriptionId} not found`);
    if (input.atPeriodEnd) await this.update(input.tenantId, { ...sub, cancel_at_period_end: true }, 'subscription.updated', input.baseUrl);
    else await this.update(input.tenantId, { ...sub, status: 'canceled', cancel_at_period_end: false }, 'subscription.deleted', input.baseUrl);
  }

  async invoices(input: { tenantId: string }): Promise<Invoice[]> {
    const rows = await this.db('billing_mock_objects').where({ kind: 'invoice', tenant_id: input.tenantId }).orderBy('created_at', 'desc').limit(100);
    return rows.map((r) => r.data as Invoice);
  }

  async fetch(input: { tenantId: string; subscriptionId: string }): Promise<SubscriptionSnapshot | null> {
    const sub = await this.subscription(input.subscriptionId);
    return sub ? mockSnapshot(input.tenantId, sub) : null;
  }

  parseEvent(body: Buffer): BillingEvent {
    return parseMockEvent(body);
  }

  // ---- what the mock pages do (a person paying, failing or canceling) ----

  async findCheckout(id: string): Promise<{ tenantId: string; data: MockCheckout } | null> {
    const row = await this.db('billing_mock_objects').where({ id, kind: 'checkout' }).first();
    return row ? { tenantId: row.tenant_id, data: row.data } : null;
  }

  /**
   * The person on the checkout page paid (or started the trial), failed the payment, or left.
   * A store's completions run one at a time (a lock per tenant): while the store holds a
   * subscription nothing completes (`subscription_exists`), so two checkout links never make two
   * subscriptions or two charges. The store's other open checkouts stay open here, as at Stripe or
   * Paddle: the service expires them (`expireCheckout`) once it applies this completion. `ended`:
   * the subscription the service has already ended on its side (end-billing-periods ends mock
   * subscriptions at the period end, as a real provider would on its own clock).
   */
  async completeCheckout(
    id: string,
    action: 'pay' | 'trial' | 'fail' | 'cancel',
    trialDays: number,
    baseUrl: string,
    ended: string | null = null,
  ): Promise<CheckoutOutcome> {
    const found = await this.findCheckout(id);
    if (!found) return 'not_open';
    const { tenantId } = found;
    const { outcome, events } = await this.db.transaction(async (trx): Promise<{ outcome: CheckoutOutcome; events: Delivery[] }> => {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`mock-checkout:${tenantId}`]);
      const data: MockCheckout = (await trx('billing_mock_objects').where({ id }).first()).data;
      const close = (status: MockCheckout['status']) =>
        trx('billing_mock_objects')
          .where({ id })
          .update({ data: { ...data, status } });
      if (data.status === 'expired') return { outcome: 'subscription_exists', events: [] };
      if (data.status !== 'open') return { outcome: 'not_open', events: [] };
      if (action === 'cancel') {
        await close('canceled');
        return { outcome: 'done', events: [['checkout.session.expired', { checkout: id }]] };
      }
      const latest = await trx('billing_mock_objects').where({ kind: 'subscription', tenant_id: tenantId }).orderBy('created_at', 'desc').first();
      if (latest && HELD.includes(latest.data.status) && latest.id !== ended) {
        await close('expired');
        return { outcome: 'subscription_exists', events: [['checkout.session.expired', { checkout: id }]] };
      }
      await close(action === 'fail' ? 'failed' : 'paid');
      const now = new Date();
      const trial = action === 'trial' && trialDays > 0;
      const trialEnd = new Date(now.getTime() + trialDays * 86400_000);
      const sub: MockSubscription = {
        id: newId('msub'),
        customer: data.customer ?? newId('mcus'),
        plan_code: data.plan_code,
        interval: data.interval,
        status: action === 'fail' ? 'incomplete' : trial ? 'trialing' : 'active',
        current_period_start: unix(now),
        current_period_end: unix(trial ? trialEnd : addInterval(now, data.interval)),
        trial_end: trial ? unix(trialEnd) : null,
        cancel_at_period_end: false,
        pending: null,
        credit_minor: 0,
      };
      await trx('billing_mock_objects').insert({ id: sub.id, kind: 'subscription', tenant_id: tenantId, data: sub });
      // Add-on bundles are charged when bought, during a trial too; the plan at the trial end.
      const plan = trial ? 0 : (this.priceOf(data.plan_code, data.interval) ?? 0);
      const total = plan + (data.addons_minor ?? 0);
      if (action === 'fail') await this.invoice(tenantId, total, 'open', trx);
      else if (total > 0 || !trial) await this.invoice(tenantId, total, 'paid', trx);
      const addons = action === 'fail' ? [] : data.addons;
      return { outcome: 'done', events: [['checkout.session.completed', { checkout: id, subscription: sub, addons }]] };
    });
    for (const [type, payload] of events) await this.deliver(tenantId, type, payload, baseUrl);
    return outcome;
  }

  /**
   * The end of the current period. Set to cancel at the period end: it ends, nothing billed.
   * Else the next period is billed on the waiting change if there is one (the credit balance
   * drawn first): paid, the new period starts on it; failed, past_due (dunning).
   */
  async renew(tenantId: string, subscriptionId: string, ok: boolean, baseUrl: string): Promise<void> {
    const sub = await this.subscription(subscriptionId);
    if (!sub || sub.status === 'canceled') return;
    if (sub.cancel_at_period_end) {
      return this.update(tenantId, { ...sub, status: 'canceled', cancel_at_period_end: false }, 'subscription.deleted', baseUrl);
    }
    const next = sub.pending ?? { plan_code: sub.plan_code, interval: sub.interval };
    const price = this.priceOf(next.plan_code, next.interval) ?? 0;
    const drawn = Math.min(sub.credit_minor ?? 0, price);
    if (!ok) {
      await this.invoice(tenantId, price - drawn, 'open');
      return this.update(tenantId, { ...sub, status: 'past_due' }, 'invoice.payment_failed', baseUrl);
    }
    const start = new Date(Math.max(sub.current_period_end * 1000, Date.now()));
    await this.invoice(tenantId, price - drawn, 'paid');
    await this.update(
      tenantId,
      {
        ...sub,
        ...next,
        pending: null,
        credit_minor: (sub.credit_minor ?? 0) - drawn,
        status: 'active',
        trial_end: null,
        current_period_start: unix(start),
        current_period_end: unix(addInterval(start, next.interval)),
      },
      'invoice.paid',
      baseUrl,
    );
  }

  async setStatus(tenantId: string, subscriptionId: string, change: Partial<MockSubscription>, type: string, baseUrl: string): Promise<void> {
    const sub = await this.subscription(subscriptionId);
    if (sub) await this.update(tenantId, { ...sub, ...change }, type, baseUrl);
  }

  async subscriptionOf(tenantId: string): Promise<MockSubscription | null> {
    const row = await this.db('billing_mock_objects').where({ kind: 'subscription', tenant_id: tenantId }).orderBy('created_at', 'desc').first();
    return row ? row.data : null;
  }

  /** The charge a request's key already made, if any. */
  private chargeOf(tenantId: string, key: string): Promise<{ id: string } | undefined> {
    return this.db('billing_mock_objects').where({ kind: 'charge', tenant_id: tenantId }).whereRaw(`data->>'key' = ?`, [key]).first();
  }

  private async subscription(id: string): Promise<MockSubscription | null> {
    const row = await this.db('billing_mock_objects').where({ id, kind: 'subscription' }).first();
    return row ? row.data : null;
  }

  private async update(tenantId: string, sub: MockSubscription, type: string, baseUrl: string): Promise<void> {
    await this.db('billing_mock_objects').where({ id: sub.id }).update({ data: sub });
    await this.deliver(tenantId, type, { subscription: sub }, baseUrl);
  }

  private async invoice(tenantId: string, total: number, status: 'paid' | 'open', db: Knex = this.db): Promise<void> {
    const id = newId('min');
    const now = new Date().toISOString();
    const invoice: Invoice = {
      id,
      status,
      currency: 'USD',
      total_minor: total,
      tax_minor: 0,
      issued_at: now,
      hosted_url: null,
      pdf_url: null,
      paid_at: status === 'paid' ? now : null,
    };
    await db('billing_mock_objects').insert({ id, kind: 'invoice', tenant_id: tenantId, data: invoice });
  }

  /** Signs and posts one event to the service's webhook, as the provider would. */
  private async deliver(tenantId: string, type: string, data: Record<string, unknown>, baseUrl: string): Promise<void> {
    const body = JSON.stringify({ id: newId('mev'), type, created: unix(new Date()), data: { tenant_id: tenantId, ...data } });
    const res = await this.send(`${baseUrl}/v1/billing/webhooks/mock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mock-signature': signStripeStyle(body, this.secret) },
      body,
    });
    if (!res.ok) throw new Error(`mock webhook delivery answered ${res.status}`);
  }
}
