import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received: method, path, form fields, headers. */
export interface StripeCall {
  method: string;
  path: string;
  form: Record<string, string>;
  headers: IncomingMessage['headers'];
}

/**
 * A local server answering like Stripe's API (form-encoded requests, JSON objects with `object`,
 * errors as `{error: {type, message}}`, Bearer auth) for the calls the adapter makes.
 */
export async function startStripeFake(apiKey: string) {
  const calls: StripeCall[] = [];
  const now = Math.floor(Date.now() / 1000);
  const state = {
    subscription: {
      id: 'sub_1',
      object: 'subscription',
      customer: 'cus_1',
      status: 'active',
      cancel_at_period_end: false,
      trial_end: null,
      metadata: {} as Record<string, string>,
      items: {
        object: 'list',
        data: [
          {
            id: 'si_1',
            object: 'subscription_item',
            price: { id: 'price_growth_m', recurring: { interval: 'month' } },
            current_period_start: now,
            current_period_end: now + 30 * 86400,
          },
        ],
      },
    },
    invoices: [] as Array<Record<string, unknown>>,
    /** Invoice items not yet on an invoice (Stripe's pending invoice items): the next invoice takes them. */
    pending: [] as Array<{ price: string | null; quantity: number; amount: number; description?: string }>,
    /** Unit amounts of the prices the fake knows (minor units). */
    prices: { price_growth_m: 9900, price_scale_m: 29900, price_conv500: 1900 } as Record<string, number>,
    /** Checkout Sessions by id: `open`, `complete` or `expired`, as Stripe reports them. */
    sessions: new Map<string, { id: string; object: 'checkout.session'; status: string; url: string }>(),
    failNext429: 0,
    /** Requests answered 503 before the fake serves again (Stripe down). */
    failNext503: 0,
    /** While set, each request waits for it before it is served (a slow Stripe); `held` counts those waiting. */
    hold: null as Promise<void> | null,
    held: 0,
    /** Requests are read and never answered (a hung Stripe); `gaveUp` counts those the client closed. */
    hang: false,
    gaveUp: 0,
  };
  /** Answers kept per Idempotency-Key, as Stripe keeps them: a request with a key already answered gets that answer again. */
  const answered = new Map<string, { status: number; body: string }>();
  /** An invoice of the given lines, paid at once with the saved card (collection automatic). */
  const invoiceOf = (lines: Array<{ price: string | null; quantity: number; amount: number; description?: string }>, status = 'draft') => {
    const inv = {
      id: `in_${state.invoices.length + 1}`,
      object: 'invoice',
      status,
      currency: 'usd',
      total: lines.reduce((sum, l) => sum + l.amount, 0),
      tax: 0,
      created: now,
      hosted_invoice_url: `https://invoice.stripe.test/${state.invoices.length + 1}`,
      invoice_pdf: null,
      status_transitions: { paid_at: status === 'paid' ? now : null },
      lines: {
        object: 'list',
        data: lines.map((l) => ({ object: 'line_item', amount: l.amount, quantity: l.quantity, price: l.price, description: l.description ?? null })),
      },
    };
    state.invoices.push(inv);
    return inv;
  };
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const form = Object.fromEntries(new URLSearchParams(raw));
    const url = new URL(req.url!, 'http://x');
    calls.push({ method: req.method!, path: url.pathname + url.search, form, headers: req.headers });
    if (state.hang) return void res.on('close', () => state.gaveUp++);
    if (state.hold) {
      state.held++;
      await state.hold;
      state.held--;
    }
    const key = req.headers['idempotency-key'] as string | undefined;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      // Stripe keeps the answer of a POST with a key, except a 429 or 5xx (the request did not run).
      if (key && req.method === 'POST' && status !== 429 && status < 500) answered.set(key, { status, body: JSON.stringify(body) });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${calls.length}`, ...headers });
      res.end(JSON.stringify(body));
    };
    const kept = key && req.method === 'POST' ? answered.get(key) : undefined;
    if (kept) {
      res.writeHead(kept.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      return res.end(kept.body);
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    if (state.failNext503 > 0) {
      state.failNext503--;
      return send(503, { error: { type: 'api_error', message: 'The server is temporarily unavailable' } });
    }
    if (state.failNext429 > 0) {
      state.failNext429--;
      return send(429, { error: { type: 'rate_limit_error', message: 'Too many requests' } }, { 'stripe-should-retry': 'true' });
    }
    const p = url.pathname;
    if (req.method === 'POST' && p === '/v1/checkout/sessions') {
      const id = `cs_${state.sessions.size + 1}`;
      const session = { id, object: 'checkout.session' as const, status: 'open', url: `https://checkout.stripe.test/c/${id}` };
      state.sessions.set(id, session);
      return send(200, { ...session, mode: form.mode });
    }
    const session = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(p);
    if (session) {
      const found = state.sessions.get(session[1]);
      if (!found)
        return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${session[1]}'` } });
      if (req.method === 'GET' && !session[2]) return send(200, found);
      if (req.method === 'POST' && session[2]) {
        // Stripe expires only open sessions; any other answers 400 without an error code.
        if (found.status !== 'open')
          return send(400, {
            error: {
              type: 'invalid_request_error',
              message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${found.status}\`.`,
            },
          });
        found.status = 'expired';
        return send(200, found);
      }
    }
    if (req.method === 'POST' && p === '/v1/billing_portal/sessions')
      return send(200, { id: 'bps_1', object: 'billing_portal.session', url: `https://billing.stripe.test/p/${form.customer}` });
    // Every `sub_…` id names the fake's one subscription: tests of several stores give each its own id.
    if (/^\/v1\/subscriptions\/sub_[A-Za-z0-9]+$/.test(p)) {
      if (req.method === 'GET') return send(200, state.subscription);
      // A canceled subscription is gone for a cancel, and takes no update but its cancellation details and metadata.
      if (state.subscription.status === 'canceled' && req.method === 'DELETE')
        return send(404, {
          error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such subscription: '${p.split('/').pop()}'` },
        });
      if (state.subscription.status === 'canceled' && Object.keys(form).some((k) => !k.startsWith('metadata') && !k.startsWith('cancellation_details')))
        return send(400, {
          error: { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details and metadata.' },
        });
      if (req.method === 'DELETE') {
        state.subscription.status = 'canceled';
        return send(200, state.subscription);
      }
      if (form['cancel_at_period_end']) state.subscription.cancel_at_period_end = form['cancel_at_period_end'] === 'true';
      const before = state.subscription.items.data[0].price.id;
      if (form['items[0][price]']) state.subscription.items.data[0].price.id = form['items[0][price]'];
      // add_invoice_items become invoice items of the subscription's next invoice: with
      // proration_behavior always_invoice that is the invoice the update makes now (prorations
      // and these items, paid at once); otherwise they wait for the renewal's invoice.
      const added: typeof state.pending = [];
      for (let i = 0; form[`add_invoice_items[${i}][price]`]; i++) {
        const price = form[`add_invoice_items[${i}][price]`];
        const quantity = Number(form[`add_invoice_items[${i}][quantity]`] ?? 1);
        added.push({ price, quantity, amount: (state.prices[price] ?? 0) * quantity });
      }
      const after = state.subscription.items.data[0].price.id;
      const prorations = after !== before ? [{ price: after, quantity: 1, amount: Math.max(0, (state.prices[after] ?? 0) - (state.prices[before] ?? 0)) }] : [];
      if (form.proration_behavior === 'always_invoice' && prorations.length + added.length > 0) invoiceOf([...prorations, ...added], 'paid');
      else state.pending.push(...added);
      if (form['metadata[plan_code]']) state.subscription.metadata.plan_code = form['metadata[plan_code]'];
      return send(200, state.subscription);
    }
    if (p.startsWith('/v1/subscriptions/'))
      return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } });
    if (req.method === 'POST' && p === '/v1/invoiceitems') {
      const price = form['pricing[price]'] ?? null;
      const quantity = Number(form.quantity ?? 1);
      const amount = price ? (state.prices[price] ?? 0) * quantity : Number(form.amount);
      state.pending.push({ price, quantity, amount, description: form.description });
      return send(200, { id: `ii_${state.pending.length}`, object: 'invoiceitem', amount, currency: form.currency ?? 'usd', quantity });
    }
    if (req.method === 'POST' && p === '/v1/invoices') {
      const lines = form.pending_invoice_items_behavior === 'include' ? state.pending.splice(0) : [];
      return send(200, invoiceOf(lines));
    }
    const pay = /^\/v1\/invoices\/(in_\d+)\/pay$/.exec(p);
    if (req.method === 'POST' && pay) {
      const inv = state.invoices.find((i) => i.id === pay[1])!;
      Object.assign(inv, { status: 'paid', status_transitions: { paid_at: now } });
      return send(200, inv);
    }
    // Newest first, as Stripe lists them.
    if (req.method === 'GET' && p === '/v1/invoices')
      return send(200, { object: 'list', data: [...state.invoices].reverse(), has_more: false, url: '/v1/invoices' });
    return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${p})` } });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        // Requests left hanging would keep close() waiting.
        server.closeAllConnections();
      }),
  };
}
