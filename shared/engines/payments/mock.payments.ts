import type { Knex } from 'knex';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { newId } from '../../platform/ids.js';
import { signStripeStyle } from './signatures.js';
import type { BillingEvent, Interval, Invoice, PaymentProvider, SubscriptionSnapshot } from './port.js';

/** The mock's record of a subscription (what a real provider keeps on its side). */
export interface MockSubscription {
  id: string;
  customer: string;
  plan_code: string;
  interval: Interval;
  status: string;
  current_period_start: number;
  current_period_end: number;
  trial_end: number | null;
  cancel_at_period_end: boolean;
}

export interface MockCheckout {
  plan_code: string;
  interval: Interval;
  addons: Array<{ code: string; quantity: number }>;
  status: 'open' | 'paid' | 'failed' | 'canceled';
  customer: string | null;
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const fromUnix = (n: number | null | undefined) => (n ? new Date(n * 1000) : null);

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

  async checkout(input: Parameters<PaymentProvider['checkout']>[0]): Promise<{ url: string }> {
    const id = newId('mcs');
    const data: MockCheckout = { plan_code: input.planCode, interval: input.interval, addons: input.addons, status: 'open', customer: input.customerId };
    await this.db('billing_mock_objects').insert({ id, kind: 'checkout', tenant_id: input.tenantId, data });
    return { url: `${input.baseUrl}/billing/mock/checkout/${id}` };
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

  async changePlan(input: Parameters<PaymentProvider['changePlan']>[0]): Promise<void> {
    const sub = await this.subscription(input.subscriptionId);
    if (!sub) throw new Error(`mock subscription ${input.subscriptionId} not found`);
    if (input.chargeNowMinor > 0) await this.invoice(input.tenantId, input.chargeNowMinor, 'paid');
    if (!input.now) return;
    const start = sub.interval !== input.interval ? unix(new Date()) : sub.current_period_start;
    const end = sub.interval !== input.interval ? unix(addInterval(new Date(), input.interval)) : sub.current_period_end;
    await this.update(
      input.tenantId,
      { ...sub, plan_code: input.planCode, interval: input.interval, current_period_start: start, current_period_end: end },
      'subscription.updated',
      input.baseUrl,
    );
  }

  async charge(input: Parameters<PaymentProvider['charge']>[0]): Promise<{ providerRef: string }> {
    const existing = await this.db('billing_mock_objects')
      .where({ kind: 'charge', tenant_id: input.tenantId })
      .whereRaw(`data->>'key' = ?`, [input.idempotencyKey])
      .first();
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
    return sub ? snapshot(input.tenantId, sub) : null;
  }

  parseEvent(body: Buffer): BillingEvent {
    return parseMockEvent(body);
  }

  // ---- what the mock pages do (a person paying, failing or canceling) ----

  async findCheckout(id: string): Promise<{ tenantId: string; data: MockCheckout } | null> {
    const row = await this.db('billing_mock_objects').where({ id, kind: 'checkout' }).first();
    return row ? { tenantId: row.tenant_id, data: row.data } : null;
  }

  /** The person on the checkout page paid (or started the trial), failed the payment, or left. */
  async completeCheckout(id: string, action: 'pay' | 'trial' | 'fail' | 'cancel', trialDays: number, baseUrl: string): Promise<void> {
    const found = await this.findCheckout(id);
    if (!found || found.data.status !== 'open') return;
    const { tenantId, data } = found;
    const status = action === 'pay' ? 'paid' : action === 'trial' ? 'paid' : action === 'fail' ? 'failed' : 'canceled';
    await this.db('billing_mock_objects')
      .where({ id })
      .update({ data: { ...data, status } });
    if (action === 'cancel') return this.deliver(tenantId, 'checkout.session.expired', { checkout: id }, baseUrl);
    const now = new Date();
    const trial = action === 'trial' && trialDays > 0;
    const sub: MockSubscription = {
      id: newId('msub'),
      customer: data.customer ?? newId('mcus'),
      plan_code: data.plan_code,
      interval: data.interval,
      status: action === 'fail' ? 'incomplete' : trial ? 'trialing' : 'active',
      current_period_start: unix(now),
      current_period_end: unix(trial ? new Date(now.getTime() + trialDays * 86400_000) : addInterval(now, data.interval)),
      trial_end: trial ? unix(new Date(now.getTime() + trialDays * 86400_000)) : null,
      cancel_at_period_end: false,
    };
    await this.db('billing_mock_objects').insert({ id: sub.id, kind: 'subscription', tenant_id: tenantId, data: sub });
    if (action === 'pay') await this.invoice(tenantId, -1, 'paid', data);
    if (action === 'fail') await this.invoice(tenantId, -1, 'open', data);
    await this.deliver(tenantId, 'checkout.session.completed', { checkout: id, subscription: sub, addons: action === 'fail' ? [] : data.addons }, baseUrl);
  }

  /** Renewal of the current period: paid (a new period) or failed (past_due, dunning). */
  async renew(tenantId: string, subscriptionId: string, ok: boolean, baseUrl: string): Promise<void> {
    const sub = await this.subscription(subscriptionId);
    if (!sub) return;
    if (ok) {
      const start = new Date(Math.max(sub.current_period_end * 1000, Date.now()));
      await this.invoice(tenantId, -1, 'paid', sub);
      await this.update(
        tenantId,
        { ...sub, status: 'active', trial_end: null, current_period_start: unix(start), current_period_end: unix(addInterval(start, sub.interval)) },
        'invoice.paid',
        baseUrl,
      );
    } else {
      await this.invoice(tenantId, -1, 'open', sub);
      await this.update(tenantId, { ...sub, status: 'past_due' }, 'invoice.payment_failed', baseUrl);
    }
  }

  async setStatus(tenantId: string, subscriptionId: string, change: Partial<MockSubscription>, type: string, baseUrl: string): Promise<void> {
    const sub = await this.subscription(subscriptionId);
    if (sub) await this.update(tenantId, { ...sub, ...change }, type, baseUrl);
  }

  async subscriptionOf(tenantId: string): Promise<MockSubscription | null> {
    const row = await this.db('billing_mock_objects').where({ kind: 'subscription', tenant_id: tenantId }).orderBy('created_at', 'desc').first();
    return row ? row.data : null;
  }

  private async subscription(id: string): Promise<MockSubscription | null> {
    const row = await this.db('billing_mock_objects').where({ id, kind: 'subscription' }).first();
    return row ? row.data : null;
  }

  private async update(tenantId: string, sub: MockSubscription, type: string, baseUrl: string): Promise<void> {
    await this.db('billing_mock_objects').where({ id: sub.id }).update({ data: sub });
    await this.deliver(tenantId, type, { subscription: sub }, baseUrl);
  }

  /** Amount -1: the plan's price for the period (the mock's price list is our catalog). */
  private async invoice(tenantId: string, amountMinor: number, status: 'paid' | 'open', of?: { plan_code: string; interval: Interval }): Promise<void> {
    const total = amountMinor >= 0 ? amountMinor : of ? (this.priceOf(of.plan_code, of.interval) ?? 0) : 0;
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
    await this.db('billing_mock_objects').insert({ id, kind: 'invoice', tenant_id: tenantId, data: invoice });
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

export function addInterval(from: Date, interval: Interval): Date {
  const d = new Date(from);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}

function snapshot(tenantId: string, sub: MockSubscription): SubscriptionSnapshot {
  return {
    tenantId,
    planCode: sub.plan_code,
    interval: sub.interval,
    rawStatus: sub.status,
    customerId: sub.customer,
    subscriptionId: sub.id,
    periodStart: fromUnix(sub.current_period_start),
    periodEnd: fromUnix(sub.current_period_end),
    trialEndsAt: fromUnix(sub.trial_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
  };
}

/** `{id, type, created, data: {tenant_id, subscription?, addons?}}` as a BillingEvent. */
export function parseMockEvent(body: Buffer): BillingEvent {
  const e = JSON.parse(body.toString('utf8'));
  if (typeof e?.id !== 'string' || typeof e?.type !== 'string' || typeof e?.created !== 'number') throw new Error('not a mock event');
  const tenantId = typeof e.data?.tenant_id === 'string' ? e.data.tenant_id : null;
  return {
    id: e.id,
    type: e.type,
    occurredAt: new Date(e.created * 1000),
    tenantId,
    subscription: tenantId && e.data?.subscription ? snapshot(tenantId, e.data.subscription) : undefined,
    addons: Array.isArray(e.data?.addons) ? e.data.addons : undefined,
  };
}
