import t from 'tap';
import { setup } from '../helpers/harness.js';

const h = await setup();
t.teardown(() => h.close());

t.test('healthz and readyz answer without a key', async (t) => {
  const health = await h.api.call('GET', '/healthz');
  t.equal(health.status, 200);
  t.same(health.body, { status: 'ok' });
  t.match(health.headers.get('x-request-id'), /^req_/);
  const ready = await h.api.call('GET', '/readyz');
  t.equal(ready.status, 200);
  t.same(ready.body, { status: 'ready', postgres: 'ok', redis: 'ok' });
});

t.test('unknown route is a 404 error body', async (t) => {
  const res = await h.api.call('GET', '/v1/nope');
  t.equal(res.status, 404);
  t.equal(res.body.error.code, 'route_not_found');
  t.equal(res.body.error.request_id, res.headers.get('x-request-id'));
});

t.test('whoami describes the calling credential; no key is a 401', async (t) => {
  const { id, key, keyId } = await h.tenant();
  const res = await h.api.call('GET', '/v1/auth/whoami', { key });
  t.equal(res.status, 200);
  t.match(res.body, { tenant_id: id, kind: 'secret', id: keyId, expires_at: null });
  t.ok(res.body.scopes.includes('admin'));
  t.equal((await h.api.call('GET', '/v1/auth/whoami')).body.error.code, 'key_missing');
});

t.test('every pooled Postgres connection sorts in memory (work_mem 32MB)', async (t) => {
  // Several at once, so more than one connection of the pool answers.
  const rows = await Promise.all(Array.from({ length: 4 }, () => h.api.deps.db.raw('SHOW work_mem')));
  for (const r of rows) t.equal(r.rows[0].work_mem, '32MB');
});
