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
    /** Checkout Sessions by id: `open`, `complete` or `expired`, as Stripe reports them. */
    sessions: new Map<string, { id: string; object: 'checkout.session'; status: string; url: string }>(),
    failNext429: 0,
    /** Requests answered 503 before the fake serves again (Stripe down). */
    failNext503: 0,
  };
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const form = Object.fromEntries(new URLSearchParams(raw));
    const url = new URL(req.url!, 'http://x');
    calls.push({ method: req.method!, path: url.pathname + url.search, form, headers: req.headers });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${calls.length}`, ...headers });
      res.end(JSON.stringify(body));
    };
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
    if (p === '/v1/subscriptions/sub_1') {
      if (req.method === 'GET') return send(200, state.subscription);
      if (req.method === 'DELETE') {
        state.subscription.status = 'canceled';
        return send(200, state.subscription);
      }
      if (form['cancel_at_period_end']) state.subscription.cancel_at_period_end = form['cancel_at_period_end'] === 'true';
      if (form['items[0][price]']) state.subscription.items.data[0].price.id = form['items[0][price]'];
      if (form['metadata[plan_code]']) state.subscription.metadata.plan_code = form['metadata[plan_code]'];
      return send(200, state.subscription);
    }
    if (p.startsWith('/v1/subscriptions/'))
      return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } });
    if (req.method === 'POST' && p === '/v1/invoiceitems')
      return send(200, { id: 'ii_1', object: 'invoiceitem', amount: Number(form.amount), currency: form.currency });
    if (req.method === 'POST' && p === '/v1/invoices') {
      const inv = {
        id: `in_${state.invoices.length + 1}`,
        object: 'invoice',
        status: 'draft',
        currency: 'usd',
        total: 1900,
        tax: 0,
        created: now,
        hosted_invoice_url: 'https://invoice.stripe.test/1',
        invoice_pdf: null,
        status_transitions: { paid_at: null },
      };
      state.invoices.push(inv);
      return send(200, inv);
    }
    const pay = /^\/v1\/invoices\/(in_\d+)\/pay$/.exec(p);
    if (req.method === 'POST' && pay) {
      const inv = state.invoices.find((i) => i.id === pay[1])!;
      Object.assign(inv, { status: 'paid', status_transitions: { paid_at: now } });
      return send(200, inv);
    }
    if (req.method === 'GET' && p === '/v1/invoices') return send(200, { object: 'list', data: state.invoices, has_more: false, url: '/v1/invoices' });
    return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${p})` } });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
