import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Item = { price_id: string; quantity: number };

/** The host Paddle names in `meta.pagination.next`; never this server's, so a client must not follow it blindly. */
const PUBLIC_URL = 'https://api.paddle.test';

/**
 * A local server answering like the Paddle Billing API (JSON bodies, Bearer key, `{data, meta}`,
 * errors `{error: {type, code, detail}}`) for the calls the adapter makes. A one-time charge is a
 * transaction of its own (origin `subscription_charge`), listed by `GET /transactions` with
 * Paddle's filters (customer_id, subscription_id, origin, created_at[LT|LTE|GT|GTE]), a page at a
 * time (per_page, the `after` cursor, meta.pagination with the `next` URL on Paddle's host).
 */
export async function startPaddleFake(apiKey: string) {
  const calls: Array<{ method: string; path: string; body: any }> = [];
  const now = new Date();
  const sub = {
    id: 'sub_01',
    status: 'active',
    customer_id: 'ctm_01',
    custom_data: {} as Record<string, unknown>,
    scheduled_change: null as null | { action: string },
    current_billing_period: { starts_at: now.toISOString(), ends_at: new Date(now.getTime() + 30 * 86400_000).toISOString() },
    billing_cycle: { interval: 'month', frequency: 1 },
    items: [{ price: { id: 'pri_growth_m' } }],
  };
  const prices: Record<string, number> = { pri_growth_m: 9900, pri_scale_m: 29900, pri_conv500: 1900 };
  /** Paddle's clock against ours (ms, negative: behind), for the times it gives transactions. */
  const clock = { offsetMs: 0 };
  const transaction = (id: string, origin: string, items: Item[]) => ({
    id,
    status: 'completed',
    customer_id: 'ctm_01',
    subscription_id: origin === 'web' ? null : sub.id,
    origin,
    invoice_id: `inv_${id.slice(4)}`,
    currency_code: 'USD',
    items: items.map((i) => ({ price_id: i.price_id, price: { id: i.price_id }, quantity: i.quantity, proration: null })),
    details: { totals: { grand_total: String(items.reduce((n, i) => n + prices[i.price_id] * i.quantity, 0)), tax: '0' } },
    billed_at: new Date().toISOString(),
    created_at: new Date(Date.now() + clock.offsetMs).toISOString(),
    updated_at: new Date().toISOString(),
  });
  const state = {
    sub,
    transactions: [transaction('txn_01', 'web', [{ price_id: 'pri_growth_m', quantity: 1 }])],
    /** Requests answered 429 (Retry-After 0) before the fake serves again. */
    throttleNext: 0,
    /** One-time charges answered 500 after nothing was billed. */
    failCharge: 0,
    /** One-time charges billed, then answered 500 (Paddle's error after the work, or an answer lost on the way). */
    failChargeBilled: 0,
    /** PATCHes writing a plan change's add-on charge done mark (a key new to custom_data `addon_charge_done`) answered 500, after the charge. */
    failChargeMark: 0,
  };
  /** `count` one-time charges of `items` made elsewhere (Paddle's dashboard, another integration), now. */
  const chargedElsewhere = (count: number, items: Item[]) => {
    for (let i = 0; i < count; i++)
      state.transactions.push(transaction(`txn_${String(state.transactions.length + 1).padStart(2, '0')}`, 'subscription_charge', items));
  };
  /** What one-time charges billed, item by item, in order. */
  const charged = () =>
    state.transactions.filter((t) => t.origin === 'subscription_charge').flatMap((t) => t.items.map((i) => ({ price_id: i.price_id, quantity: i.quantity })));

  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    const url = new URL(req.url!, 'http://x');
    calls.push({ method: req.method!, path: url.pathname + url.search, body });
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    const error = (status: number, type: string, code: string, detail: string) => send(status, { error: { type, code, detail } }, { 'retry-after': '0' });
    if (req.headers.authorization !== `Bearer ${apiKey}`) return error(403, 'request_error', 'forbidden', 'bad key');
    if (state.throttleNext > 0) {
      state.throttleNext--;
      return error(429, 'request_error', 'too_many_requests', 'slow down');
    }
    const p = url.pathname;
    if (req.method === 'POST' && p === '/transactions')
      return send(201, { data: { id: 'txn_01', status: 'ready', checkout: { url: 'https://pay.paddle.test/checkout?_ptxn=txn_01' } }, meta: {} });
    if (req.method === 'POST' && p === '/customers/ctm_01/portal-sessions')
      return send(201, { data: { id: 'cpls_01', urls: { general: { overview: 'https://customer-portal.paddle.test/cpl_01' } } } });
    if (p === '/subscriptions/sub_01' && req.method === 'GET') return send(200, { data: sub });
    if (p === '/subscriptions/sub_01' && req.method === 'PATCH') {
      if (!body.items && state.failChargeMark > 0 && doneKeys(body.custom_data).some((k) => !doneKeys(sub.custom_data).includes(k))) {
        state.failChargeMark--;
        return error(500, 'api_error', 'internal_error', 'try again');
      }
      if (body.items) sub.items = [{ price: { id: body.items[0].price_id } }];
      // Paddle replaces custom_data whole.
      if (body.custom_data) sub.custom_data = body.custom_data;
      return send(200, { data: sub });
    }
    if (p === '/subscriptions/sub_01/charge') {
      if (state.failCharge > 0) {
        state.failCharge--;
        return error(500, 'api_error', 'internal_error', 'try again');
      }
      // One-time charges are billed as their own transaction and not held on the subscription.
      if (body.effective_from === 'immediately')
        state.transactions.push(transaction(`txn_${String(state.transactions.length + 1).padStart(2, '0')}`, 'subscription_charge', body.items));
      if (state.failChargeBilled > 0) {
        state.failChargeBilled--;
        return error(500, 'api_error', 'internal_error', 'try again');
      }
      return send(200, { data: sub });
    }
    if (p === '/subscriptions/sub_01/cancel') {
      if (sub.status === 'canceled')
        return error(400, 'request_error', 'subscription_is_canceled_action_invalid', "action can't be performed on canceled subscription");
      if (body.effective_from === 'immediately') sub.status = 'canceled';
      else sub.scheduled_change = { action: 'cancel' };
      return send(200, { data: sub });
    }
    if (req.method === 'GET' && p === '/transactions') {
      const list = listTransactions(state.transactions, url.searchParams);
      return list ? send(200, list) : error(400, 'request_error', 'invalid_field', 'after: no such transaction in this list');
    }
    return error(404, 'request_error', 'not_found', `no ${req.method} ${p}`);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    state,
    charged,
    chargedElsewhere,
    clock,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The plan changes a custom_data marks done: `addon_charge_done` (a list), or `addon_charge_key` (one key, as written before the lists). */
function doneKeys(custom: Record<string, any> | undefined): string[] {
  const list: unknown[] = Array.isArray(custom?.addon_charge_done) ? custom.addon_charge_done.map((m: { key?: unknown }) => m?.key) : [];
  return [...list, custom?.addon_charge_key].filter((k): k is string => typeof k === 'string');
}

/**
 * `GET /transactions` as Paddle answers it: filters ANDed, comma lists ORed, dates compared with
 * their operator, newest first by default, 30 a page (at most) after the `after` cursor; `next`
 * (always given) is the same query on Paddle's host with `after` the page's last id. Null for a
 * cursor not in the list.
 */
function listTransactions(all: Array<Record<string, any>>, q: URLSearchParams) {
  const ops: Record<string, (a: number, b: number) => boolean> = { LT: (a, b) => a < b, LTE: (a, b) => a <= b, GT: (a, b) => a > b, GTE: (a, b) => a >= b };
  const list = all.filter((t) => {
    for (const field of ['customer_id', 'subscription_id', 'origin', 'status']) {
      const want = q.get(field);
      if (want !== null && !want.split(',').includes(t[field])) return false;
    }
    for (const [op, cmp] of Object.entries(ops)) {
      const at = q.get(`created_at[${op}]`);
      if (at !== null && !cmp(Date.parse(t.created_at), Date.parse(at))) return false;
    }
    return true;
  });
  const asc = (q.get('order_by') ?? 'id[DESC]').endsWith('[ASC]');
  list.sort((a, b) => (Date.parse(a.created_at) - Date.parse(b.created_at) || a.id.localeCompare(b.id)) * (asc ? 1 : -1));
  const perPage = Math.min(Number(q.get('per_page') ?? 30), 30);
  const after = q.get('after');
  const start = after === null ? 0 : list.findIndex((t) => t.id === after) + 1;
  if (start === 0 && after !== null) return null;
  const data = list.slice(start, start + perPage);
  const next = new URLSearchParams(q);
  const last = data.at(-1)?.id ?? after;
  if (last) next.set('after', last);
  return {
    data,
    meta: {
      pagination: { per_page: perPage, next: `${PUBLIC_URL}/transactions?${next}`, has_more: start + perPage < list.length, estimated_total: list.length },
    },
  };
}

/** The adapter's input for an add-on purchase of `quantity` bundles of 500 conversations under `key` (subscription sub_01). */
export const paddlePurchase = (tenantId: string, key: string, quantity: number) => ({
  tenantId,
  customerId: 'ctm_01',
  subscriptionId: 'sub_01',
  amountMinor: 1900 * quantity,
  currency: 'USD',
  description: `${quantity} x 500 conversations`,
  item: { key: 'addon:assistant_conversations_500', quantity },
  baseUrl: 'http://x',
  idempotencyKey: key,
});
