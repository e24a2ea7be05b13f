import { paddleSubscription, parsePaddleEvent } from './paddle-events.js';
import type { BillingEvent, CheckoutClose, Invoice, PaymentProvider, SubscriptionSnapshot } from './port.js';
import { changeDone, MARK_RETENTION_MS, MARK_SLOTS, pendingCharge, pendingChargeMade, tidyMarks, withMark, type PendingCharge } from './paddle.charge-marks.js';
import type { PaddlePage } from './paddle.list.js';

export interface PaddleOptions {
  apiKey: string;
  /** https://api.paddle.com, https://sandbox-api.paddle.com, or a local server in tests. */
  apiUrl: string;
  /** Price ids per `plan:interval` and per `addon:<code>`. */
  prices: Record<string, string>;
  timeoutMs?: number;
  /** How long a charge mark is kept in custom_data (ms): as long as an Idempotency-Key is honoured (IDEMPOTENCY_TTL_HOURS; 48 h by default). */
  markRetentionMs?: number;
}

/** A Paddle API error (`{error: {type, code, detail}}`). */
export class PaddleError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(`Paddle ${status} ${code}: ${detail}`);
  }
}

/**
 * Paddle Billing over its REST API (JSON, Bearer key, `{data}` envelopes): transactions for
 * checkout (their `checkout.url`), customer portal sessions, subscription updates with
 * `prorated_immediately` (upgrades) or `do_not_bill` (downgrades), one-time charges on the
 * subscription for add-ons, cancel now or at the next billing period, transactions as invoices.
 * A 429 is retried twice after Retry-After (or 1 s), and so is a 5xx of a GET or PATCH; a POST's
 * 5xx is not (a charge Paddle made before failing would be made twice): the caller's retry decides.
 */
export class PaddlePayments implements PaymentProvider {
  readonly name = 'paddle' as const;

  constructor(private opts: PaddleOptions) {}

  private price(key: string): string {
    const id = this.opts.prices[key];
    if (!id) throw new Error(`PADDLE_PRICES has no price for ${key}`);
    return id;
  }

  /** A list page through call() (its meta kept for the next page), for the charge marks. */
  private readonly page: PaddlePage = (path) => this.call('GET', path);

  private get retentionMs(): number {
    return this.opts.markRetentionMs ?? MARK_RETENTION_MS;
  }

  /** The subscription's custom_data as Paddle holds it (ours and anyone else's), to write back whole. */
  private async customData(path: string): Promise<Record<string, unknown>> {
    return (await this.request<{ custom_data?: Record<string, unknown> | null }>('GET', path)).custom_data ?? {};
  }

  /** The answer's `data` (request bodies and retries as call()). */
  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.call<{ data?: T }>(method, path, body)).data as T;
  }

  /** The answer's JSON envelope, `{data, meta}`; a 429 (or a GET's or PATCH's 5xx) retried twice. */
  private async call<E>(method: string, path: string, body?: unknown, attempt = 0): Promise<E> {
    const res = await fetch(`${this.opts.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.opts.apiKey}`, 'content-type': 'application/json', 'paddle-version': '1' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
    });
    // A POST (a charge, a transaction) may have been made before a 5xx: only its 429 is sure to have done nothing.
    if ((res.status === 429 || (res.status >= 500 && method !== 'POST')) && attempt < 2) {
      const wait = Number(res.headers.get('retry-after') ?? 1);
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, Math.min(Number.isFinite(wait) ? wait : 1, 10) * 1000));
      return this.call(method, path, body, attempt + 1);
    }
    const json = (await res.json().catch(() => ({}))) as E & { error?: { code?: string; detail?: string } };
    if (!res.ok) throw new PaddleError(res.status, json.error?.code ?? 'unknown', json.error?.detail ?? res.statusText);
    return json;
  }

  async checkout(input: Parameters<PaymentProvider['checkout']>[0]): Promise<{ url: string; checkoutId: string }> {
    const tx = await this.request<{ id: string; checkout?: { url?: string } }>('POST', '/transactions', {
      items: [
        { price_id: this.price(`${input.planCode}:${input.interval}`), quantity: 1 },
        ...input.addons.map((a) => ({ price_id: this.price(`addon:${a.code}`), quantity: a.quantity })),
      ],
      ...(input.customerId ? { customer_id: input.customerId } : {}),
      custom_data: { tenant_id: input.tenantId, plan_code: input.planCode, addons: input.addons },
      collection_mode: 'automatic',
    });
    if (!tx.checkout?.url) throw new Error('Paddle returned a transaction without a checkout url (set a default payment link)');
    return { url: tx.checkout.url, checkoutId: tx.id };
  }

  /**
   * The checkout's transaction set to `canceled` (`PATCH /transactions/{id}`, the status alone, as
   * Paddle requires). Paddle refuses it with a 400 for a transaction no longer draft or ready: the
   * transaction is then read back, and `canceled` or paid (`paid`, `completed`, `billed`)
   * is the answer; a `draft` (Paddle refuses to cancel one) is `not_cancelable`; a 404 is `missing`.
   */
  async expireCheckout(input: { tenantId: string; checkoutId: string }): Promise<CheckoutClose> {
    const path = `/transactions/${encodeURIComponent(input.checkoutId)}`;
    try {
      await this.request('PATCH', path, { status: 'canceled' });
      return 'expired';
    } catch (err) {
      if (!(err instanceof PaddleError)) throw err;
      if (err.status === 404) return 'missing';
      if (err.status !== 400) throw err;
      const tx = await this.request<{ status?: string }>('GET', path);
      if (tx.status === 'canceled') return 'already_expired';
      if (['paid', 'completed', 'billed'].includes(tx.status ?? '')) return 'already_completed';
      // Paddle cancels ready and billed transactions only; a draft (no customer details yet) it refuses.
      if (tx.status === 'draft') return 'not_cancelable';
      throw err;
    }
  }

  async portal(input: { customerId: string | null }): Promise<{ url: string }> {
    if (!input.customerId) throw new Error('no Paddle customer yet');
    const session = await this.request<{ urls: { general: { overview: string } } }>('POST', `/customers/${input.customerId}/portal-sessions`, {});
    return { url: session.urls.general.overview };
  }

  /**
   * The plan: a PATCH of the subscription's recurring items. Add-on bundles bought with the change:
   * a one-time charge on the subscription billed at once (`/charge`, as Paddle keeps one-time
   * items out of a subscription's items), whatever the plan change bills. Paddle takes no
   * idempotency key, so the charge is marked in the subscription's custom_data around it: the plan
   * PATCH adds the key's mark to `addon_charge_pending` (paddle.charge-marks.ts) before it, a PATCH
   * after it moves the key to `addon_charge_done`. A retry that finds its key done charges nothing;
   * one that finds only its pending mark (the process died, or the last PATCH failed) asks Paddle
   * whether the charge was made before charging. The plan PATCH goes first: a change Paddle refuses
   * charges nothing. Paddle's PATCH replaces custom_data whole, so it is read first, with or
   * without bundles, and written back with what it holds (other requests' marks, anyone's keys),
   * only tenant, plan and this key's marks changed.
   */
  async changePlan(input: Parameters<PaymentProvider['changePlan']>[0]): Promise<{ creditMinor?: number }> {
    const path = `/subscriptions/${input.subscriptionId}`;
    const key = input.idempotencyKey;
    const items = input.addons.map((a) => ({ price_id: this.price(`addon:${a.code}`), quantity: a.quantity }));
    const now = Date.now();
    const current = await this.customData(path);
    const custom = { ...tidyMarks(current, now, this.retentionMs), tenant_id: input.tenantId, plan_code: input.planCode };
    const markDone = (c: Record<string, unknown>) => withMark(c, MARK_SLOTS.changeDone, { key, at: new Date().toISOString() }, Date.now(), this.retentionMs);
    let charged = false;
    let pending: PendingCharge | null = null;
    if (items.length > 0) {
      charged = changeDone(current, key) || (await pendingChargeMade(this.page, input.subscriptionId, current[MARK_SLOTS.change], key, items));
      if (!charged) pending = await pendingCharge(this.page, input.subscriptionId, key);
    }
    const marked = pending ? withMark(custom, MARK_SLOTS.change, pending, now, this.retentionMs) : custom;
    await this.request('PATCH', path, {
      items: [{ price_id: this.price(`${input.planCode}:${input.interval}`), quantity: 1 }],
      proration_billing_mode: input.now ? 'prorated_immediately' : 'do_not_bill',
      // A charge made gets (or keeps) its done mark, one to make its pending mark; the rest stays.
      custom_data: charged ? (changeDone(custom, key) ? custom : markDone(custom)) : marked,
    });
    if (pending) {
      await this.request('POST', `${path}/charge`, { effective_from: 'immediately', items });
      await this.request('PATCH', path, { custom_data: markDone(marked) });
    }
    return {};
  }

  /**
   * Add-ons: a one-time charge on the subscription (`/charge`, billed at once) at the price PADDLE_PRICES
   * gives `addon:<code>`. Paddle takes no idempotency key, so the purchase is announced in the
   * subscription's custom_data (its key's mark added to `addon_purchase_pending`,
   * paddle.charge-marks.ts; the other purchases' marks and the rest kept) before the charge: a retry
   * of the same purchase (its first try failed after Paddle billed, or the answer was lost) finds its
   * key's mark and looks for the charge among the subscription's transactions before charging.
   */
  async charge(input: Parameters<PaymentProvider['charge']>[0]): Promise<{ providerRef: string }> {
    if (!input.subscriptionId) throw new Error('no Paddle subscription');
    const path = `/subscriptions/${input.subscriptionId}`;
    const providerRef = `paddle:${input.subscriptionId}:${input.idempotencyKey}`;
    const items = [{ price_id: this.price(input.item.key), quantity: input.item.quantity }];
    const custom = await this.customData(path);
    if (await pendingChargeMade(this.page, input.subscriptionId, custom[MARK_SLOTS.purchase], input.idempotencyKey, items)) return { providerRef };
    const pending = await pendingCharge(this.page, input.subscriptionId, input.idempotencyKey);
    // custom_data is replaced whole: what it holds stays.
    await this.request('PATCH', path, { custom_data: withMark(custom, MARK_SLOTS.purchase, pending, Date.now(), this.retentionMs) });
    // The charge answers with the subscription; one request is one purchase.
    await this.request('POST', `${path}/charge`, { effective_from: 'immediately', items });
    return { providerRef };
  }

  /**
   * Paddle refuses to cancel a subscription it has canceled already (400
   * `subscription_is_canceled_action_invalid`: canceled elsewhere, its event not applied yet): the
   * store's wish is then true, answered `alreadyCanceled` once the subscription reads canceled.
   */
  async cancel(input: Parameters<PaymentProvider['cancel']>[0]): Promise<{ alreadyCanceled: boolean }> {
    const path = `/subscriptions/${input.subscriptionId}`;
    try {
      await this.request('POST', `${path}/cancel`, { effective_from: input.atPeriodEnd ? 'next_billing_period' : 'immediately' });
      return { alreadyCanceled: false };
    } catch (err) {
      if (!(err instanceof PaddleError && err.code === 'subscription_is_canceled_action_invalid')) throw err;
      const current = await this.request<{ status?: string }>('GET', path);
      if (current.status === 'canceled') return { alreadyCanceled: true };
      throw err;
    }
  }

  async invoices(input: { customerId: string | null }): Promise<Invoice[]> {
    if (!input.customerId) return [];
    const txs = await this.request<Array<any>>(
      'GET',
      `/transactions?customer_id=${encodeURIComponent(input.customerId)}&order_by=created_at[DESC]&per_page=24`,
    );
    return txs.map((tx) => ({
      id: tx.invoice_id ?? tx.id,
      status: tx.status,
      currency: tx.currency_code,
      total_minor: Number(tx.details?.totals?.grand_total ?? tx.details?.totals?.total ?? 0),
      tax_minor: Number(tx.details?.totals?.tax ?? 0),
      issued_at: tx.billed_at ?? tx.created_at,
      hosted_url: null,
      pdf_url: null,
      paid_at: tx.status === 'completed' ? (tx.updated_at ?? null) : null,
    }));
  }

  async fetch(input: { tenantId: string; subscriptionId: string }): Promise<SubscriptionSnapshot | null> {
    try {
      const d = await this.request<any>('GET', `/subscriptions/${input.subscriptionId}`);
      return paddleSubscription({ ...d, custom_data: { tenant_id: input.tenantId, ...(d.custom_data ?? {}) } }, this.opts.prices) ?? null;
    } catch (err) {
      if (err instanceof PaddleError && err.status === 404) return null;
      throw err;
    }
  }

  parseEvent(body: Buffer): BillingEvent {
    return parsePaddleEvent(body, this.opts.prices);
  }
}
