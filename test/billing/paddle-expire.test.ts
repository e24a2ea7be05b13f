import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PaddlePayments } from '../../shared/engines/payments/paddle.payments.js';
import { parsePaddleEvent } from '../../shared/engines/payments/index.js';

// The Paddle adapter closing a checkout's transaction, against a local server answering as Paddle Billing does.
const KEY = 'pdl_apikey_expire_0123456789';
const calls: Array<{ method: string; path: string; body: any }> = [];
const txs = new Map<string, { id: string; status: string }>();
let down = 0;
const server = createServer(async (req, res) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  const body = raw ? JSON.parse(raw) : undefined;
  const path = new URL(req.url!, 'http://x').pathname;
  calls.push({ method: req.method!, path, body });
  const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(payload));
  };
  const error = (status: number, code: string, detail: string) => send(status, { error: { type: 'request_error', code, detail }, meta: { request_id: 'r' } });
  if (req.headers.authorization !== `Bearer ${KEY}`) return error(403, 'forbidden', 'bad key');
  if (down > 0) {
    down--;
    return send(503, { error: { type: 'api_error', code: 'service_unavailable', detail: 'down' } }, { 'retry-after': '0' });
  }
  if (req.method === 'POST' && path === '/transactions') {
    // Paddle: a transaction without a customer is a draft until the checkout collects their details.
    const tx = { id: `txn_${txs.size + 1}`, status: body.customer_id ? 'ready' : 'draft' };
    txs.set(tx.id, tx);
    return send(201, { data: { ...tx, checkout: { url: `https://pay.paddle.test/checkout?_ptxn=${tx.id}` } } });
  }
  const m = /^\/transactions\/([^/]+)$/.exec(path);
  const tx = m && txs.get(m[1]);
  if (m && !tx) return error(404, 'not_found', 'Entity not found');
  if (tx && req.method === 'GET') return send(200, { data: tx });
  if (tx && req.method === 'PATCH') {
    if (Object.keys(body).length !== 1 || body.status !== 'canceled')
      return error(400, 'transaction_cannot_be_modified_and_canceled', 'Cannot update transaction to canceled, along with other fields at the same time');
    if (!['ready', 'billed'].includes(tx.status))
      return error(400, 'transaction_invalid_status_change', `Invalid attempt to change status from '${tx.status}' to 'canceled'`);
    tx.status = 'canceled';
    return send(200, { data: tx });
  }
  return error(404, 'not_found', `no ${req.method} ${path}`);
});
server.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
t.teardown(() => new Promise<void>((r) => server.close(() => r())));
const paddle = new PaddlePayments({
  apiKey: KEY,
  apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  prices: { 'growth:month': 'pri_growth_m' },
});
const open = async (customerId: string | null = 'ctm_1') =>
  paddle.checkout({ tenantId: 'ten_1', planCode: 'growth', interval: 'month', addons: [], addonsMinor: 0, customerId, baseUrl: 'http://x' });

t.test('checkout answers the transaction id; expiring it cancels the transaction with its status alone', async (t) => {
  const { checkoutId } = await open();
  t.equal(checkoutId, 'txn_1');
  t.equal(await paddle.expireCheckout({ tenantId: 'ten_1', checkoutId }), 'expired');
  t.same(calls.at(-1), { method: 'PATCH', path: '/transactions/txn_1', body: { status: 'canceled' } });
  t.equal(txs.get('txn_1')!.status, 'canceled');
});

t.test('a transaction already canceled, paid, or unknown counts as done', async (t) => {
  t.equal(await paddle.expireCheckout({ tenantId: 'ten_1', checkoutId: 'txn_1' }), 'already_expired');
  const { checkoutId } = await open();
  txs.get(checkoutId)!.status = 'completed';
  t.equal(await paddle.expireCheckout({ tenantId: 'ten_1', checkoutId }), 'already_completed');
  t.equal(txs.get(checkoutId)!.status, 'completed');
  t.equal(await paddle.expireCheckout({ tenantId: 'ten_1', checkoutId: 'txn_nope' }), 'missing');
});

t.test('a draft (a store with no Paddle customer yet) Paddle will not cancel: not_cancelable, not an error retried for ever', async (t) => {
  const { checkoutId } = await open(null);
  t.equal(txs.get(checkoutId)!.status, 'draft');
  t.equal(await paddle.expireCheckout({ tenantId: 'ten_1', checkoutId }), 'not_cancelable');
  t.equal(txs.get(checkoutId)!.status, 'draft');
});

t.test('Paddle down: a 503 beyond the adapter’s retries throws (the job retries), then the expire lands', async (t) => {
  const { checkoutId } = await open();
  down = 3;
  await t.rejects(paddle.expireCheckout({ tenantId: 'ten_1', checkoutId }), /Paddle 503/);
  t.equal(txs.get(checkoutId)!.status, 'ready');
  t.equal(await paddle.expireCheckout({ tenantId: 'ten_1', checkoutId }), 'expired');
});

t.test('transaction.completed and transaction.canceled name the checkout', async (t) => {
  const note = (event_type: string, data: object) =>
    parsePaddleEvent(Buffer.from(JSON.stringify({ event_id: 'ntf_1', event_type, occurred_at: new Date().toISOString(), data })), {});
  t.same(note('transaction.completed', { id: 'txn_1', subscription_id: 'sub_9', custom_data: { tenant_id: 'ten_1' } }).checkout, {
    id: 'txn_1',
    status: 'completed',
    subscriptionId: 'sub_9',
  });
  t.same(note('transaction.canceled', { id: 'txn_2', custom_data: { tenant_id: 'ten_1' } }).checkout, { id: 'txn_2', status: 'expired', subscriptionId: null });
});
