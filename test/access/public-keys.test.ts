import t from 'tap';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { setup, call } from '../helpers/harness.js';
import { auth, originMatches } from '../../api/http/middleware/auth.js';
import { cors } from '../../api/http/middleware/cors.js';
import { errorHandler } from '../../api/http/middleware/error-handler.js';
import { requestId } from '../../api/http/middleware/request-id.js';

const h = await setup();
t.teardown(() => h.close());
const admin = await h.tenant();

// No shopper-facing route exists yet, so the real middlewares guard a stand-in `search` handler.
const app = new Koa();
app.silent = true;
app.use(requestId);
app.use(errorHandler(h.api.deps.logger));
app.use(cors);
app.use(auth(h.api.deps, { scope: 'search' }));
app.use((ctx) => {
  ctx.body = { ok: true };
});
const server = app.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const search = (key: string, origin?: string) => call(base, 'GET', '/search', { key, headers: origin ? { origin } : {} });

const made = await h.api.call('POST', '/v1/keys', {
  key: admin.key,
  body: { name: 'storefront', kind: 'public', allowed_origins: ['https://shop.example', 'https://*.example.org'] },
});
const pk: string = made.body.key;

t.test('originMatches', async (t) => {
  t.ok(originMatches('https://shop.example', 'https://shop.example'));
  t.notOk(originMatches('https://shop.example', 'http://shop.example'), 'scheme matters');
  t.notOk(originMatches('https://shop.example', 'https://shop.example:8443'), 'port matters');
  t.notOk(originMatches('https://shop.example', 'https://evil.shop.example'), 'no implied subdomains');
  t.ok(originMatches('https://*.example.org', 'https://a.example.org'));
  t.ok(originMatches('https://*.example.org', 'https://a.b.example.org'));
  t.notOk(originMatches('https://*.example.org', 'https://example.org'), 'the bare domain is not a subdomain');
  t.notOk(originMatches('https://*.example.org', 'https://.example.org'));
  t.notOk(originMatches('https://*.example.org', 'https://evilexample.org'));
  t.notOk(originMatches('https://*.example.org', 'https://a.example.org.evil.com'));
  t.notOk(originMatches('https://*.example.org', 'http://a.example.org'));
});

t.test('a public key is held to its allowed origins', async (t) => {
  t.equal(made.status, 201);
  const ok = await search(pk, 'https://shop.example');
  t.equal(ok.status, 200);
  t.same(ok.body, { ok: true });

  const wild = await search(pk, 'https://de.example.org');
  t.equal(wild.status, 200, 'wildcard subdomain');

  const wrong = await search(pk, 'https://evil.example');
  t.equal(wrong.status, 403);
  t.equal(wrong.body.error.code, 'origin_not_allowed');
  const bare = await search(pk, 'https://example.org');
  t.equal(bare.status, 403);
  t.equal(bare.body.error.code, 'origin_not_allowed');

  const none = await search(pk);
  t.equal(none.status, 403);
  t.equal(none.body.error.code, 'origin_missing');
});

t.test('a secret key needs no Origin; a key without the scope is refused', async (t) => {
  t.equal((await search(admin.key)).status, 200);
  const eventsOnly = await h.api.call('POST', '/v1/keys', {
    key: admin.key,
    body: { name: 'events only', kind: 'public', scopes: ['events'], allowed_origins: ['https://shop.example'] },
  });
  const res = await search(eventsOnly.body.key, 'https://shop.example');
  t.equal(res.status, 403);
  t.equal(res.body.error.code, 'scope_missing');
});

t.test('a patched origin list applies at once', async (t) => {
  const k = (
    await h.api.call('POST', '/v1/keys', {
      key: admin.key,
      body: { name: 'moving shop', kind: 'public', allowed_origins: ['https://old.example'] },
    })
  ).body;
  t.equal((await search(k.key, 'https://old.example')).status, 200);
  const patched = await h.api.call('PATCH', `/v1/keys/${k.id}`, { key: admin.key, body: { allowed_origins: ['https://new.example'] } });
  t.equal(patched.status, 200);
  t.equal((await search(k.key, 'https://old.example')).body.error.code, 'origin_not_allowed');
  t.equal((await search(k.key, 'https://new.example')).status, 200);
});

t.test('public keys cannot call secret-only routes even from an allowed origin', async (t) => {
  const res = await h.api.call('GET', '/v1/jobs', { key: pk, headers: { origin: 'https://shop.example' } });
  t.equal(res.status, 403);
  t.equal(res.body.error.code, 'key_kind_not_allowed');
});

t.test('CORS preflight is answered without a key', async (t) => {
  const res = await h.api.call('OPTIONS', '/v1/keys', {
    headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, idempotency-key' },
  });
  t.equal(res.status, 204);
  t.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example');
  const methods = (res.headers.get('access-control-allow-methods') ?? '').toLowerCase();
  for (const m of ['get', 'post', 'patch', 'delete']) t.ok(methods.includes(m), `allows ${m}`);
  const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
  for (const name of ['authorization', 'idempotency-key', 'content-type']) t.ok(allowed.includes(name), `allows header ${name}`);
  t.match(res.headers.get('vary') ?? '', /origin/i);
});

t.test('normal and error responses carry CORS headers and expose X-Request-Id', async (t) => {
  for (const res of [
    await h.api.call('GET', '/v1/keys', { key: admin.key, headers: { origin: 'https://shop.example' } }),
    await h.api.call('GET', '/v1/keys', { headers: { origin: 'https://shop.example' } }),
    await search(pk, 'https://shop.example'),
    await search(pk, 'https://evil.example'),
  ]) {
    t.equal(res.headers.get('access-control-allow-origin'), res.status === 403 ? 'https://evil.example' : 'https://shop.example');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    t.ok(exposed.includes('x-request-id'), `status ${res.status} exposes X-Request-Id`);
    t.ok(res.headers.get('x-request-id'));
  }
  const noOrigin = await h.api.call('GET', '/v1/keys', { key: admin.key });
  t.equal(noOrigin.headers.get('access-control-allow-origin'), null, 'no CORS headers without an Origin');
});

// A public key is refused from every origin not in its list, so one created (or patched) with none
// could never be used: creating or patching it so is a 400 on allowed_origins, and nothing changes.
t.test('a public key needs at least one allowed origin, at creation and by patch', async (t) => {
  const count = async () => Number((await h.api.deps.db('api_keys').where({ tenant_id: admin.id, name: 'no-origin' }).count({ n: '*' }))[0].n);
  for (const [body, code] of [
    [{ name: 'no-origin', kind: 'public' }, 'required'],
    [{ name: 'no-origin', kind: 'public', allowed_origins: [] }, 'too_short'],
    [{ name: 'no-origin', kind: 'public', scopes: ['search'] }, 'required'],
  ] as const) {
    const res = await h.api.call('POST', '/v1/keys', { key: admin.key, body });
    t.equal(res.status, 400, JSON.stringify(body));
    t.equal(res.body.error?.code, 'validation_failed');
    t.match(res.body.error?.details, [{ in: 'body', field: 'allowed_origins', code }]);
    t.match(res.body.error?.message, /allowed_origins/);
  }
  t.equal(await count(), 0, 'no key was stored');

  const key = (await h.api.call('POST', '/v1/keys', { key: admin.key, body: { name: 'one-origin', kind: 'public', allowed_origins: ['https://a.example'] } }))
    .body;
  t.equal((await search(key.key, 'https://a.example')).status, 200);
  const emptied = await h.api.call('PATCH', `/v1/keys/${key.id}`, { key: admin.key, body: { name: 'renamed', allowed_origins: [] } });
  t.equal(emptied.status, 400);
  t.match(emptied.body.error?.details, [{ in: 'body', field: 'allowed_origins', code: 'too_short' }]);
  const row = await h.api.deps.db('api_keys').where({ id: key.id }).first();
  t.same([row.name, row.allowed_origins], ['one-origin', ['https://a.example']], 'nothing of the refused patch was written');
  t.equal((await search(key.key, 'https://a.example')).status, 200, 'the key still works from its origin');
  const kept = await h.api.call('PATCH', `/v1/keys/${key.id}`, { key: admin.key, body: { name: 'renamed', allowed_origins: null } });
  t.equal(kept.status, 200, 'null keeps the list');
  t.same(kept.body.allowed_origins, ['https://a.example']);

  const secret = await h.api.call('POST', '/v1/keys', { key: admin.key, body: { name: 'server', kind: 'secret', allowed_origins: [] } });
  t.equal(secret.status, 201, 'a secret key still takes none');
  t.same(secret.body.allowed_origins, []);
});
