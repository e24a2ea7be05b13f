import t from 'tap';
import { setup } from '../helpers/harness.js';

const h = await setup();
t.teardown(() => h.close());
const operator = await h.tenant('Operator');
const store = await h.tenant('A store');
// Operator stores are named at start (OPERATOR_TENANT_IDS); the ids exist only now.
h.api.deps.config.ops.operatorTenantIds.push(operator.id);
const board = `${h.api.url}/admin/queues`;
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${board}${path}`, { headers, redirect: 'manual' });

t.test('denied without admin rights', async (t) => {
  t.equal((await get('')).status, 401, 'no credential');
  t.equal((await get('/api/queues')).status, 401);
  const readKey = await h.api.call('POST', '/v1/keys', { key: operator.key, body: { name: 'reader', kind: 'secret', scopes: ['catalog:read'] } });
  t.equal(readKey.status, 201);
  const res = await get('/api/queues', { authorization: `Bearer ${readKey.body.key}` });
  t.equal(res.status, 403);
  t.equal((await res.json()).error.code, 'scope_missing');
  const other = await get('/api/queues', { authorization: `Bearer ${store.key}` });
  t.equal(other.status, 403, 'an admin key of a store that is not an operator');
  t.equal((await other.json()).error.code, 'operator_only');
});

t.test('served with an admin key, read-only', async (t) => {
  const page = await get('', { authorization: `Bearer ${operator.key}` });
  t.equal(page.status, 200);
  t.match(await page.text(), /<html/i);
  const api = await get('/api/queues', { authorization: `Bearer ${operator.key}` });
  t.equal(api.status, 200);
  const body = await api.json();
  const names = body.queues.map((q: { name: string }) => q.name);
  t.ok(names.includes('catalog'), 'the catalog queue is listed');
  t.ok(
    body.queues.every((q: { readOnlyMode: boolean }) => q.readOnlyMode),
    'read-only by default',
  );
  const retry = await fetch(`${board}/api/queues/catalog/retry/failed`, { method: 'PUT', headers: { authorization: `Bearer ${operator.key}` } });
  t.equal(retry.status, 403);
  t.equal((await retry.json()).error.code, 'dashboard_read_only');
});

t.test('a dashboard session opens it in a browser through a cookie', async (t) => {
  const session = await h.api.call('POST', '/v1/sessions', { key: operator.key, body: {} });
  t.equal(session.status, 201);
  const first = await get(`?token=${session.body.token}`);
  t.equal(first.status, 302, 'the token leaves the URL');
  t.equal(first.headers.get('location'), '/admin/queues');
  const cookie = first.headers.get('set-cookie')!;
  t.match(cookie, /httponly/i);
  t.match(cookie, /path=\/admin\/queues/i);
  const next = await get('/api/queues', { cookie: cookie.split(';')[0] });
  t.equal(next.status, 200);
});
