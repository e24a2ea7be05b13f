import t from 'tap';
import { setup, type Reply } from '../helpers/harness.js';

const h = await setup({ BODY_LIMIT_BYTES: '2048' });
t.teardown(() => h.close());
const admin = await h.tenant();

/** Every error answer: the documented body, a request id matching the header, never a 5xx. */
function isError(t: Asserts, res: Reply, status: number, code: string) {
  t.equal(res.status, status, `status ${status}`);
  t.equal(res.body?.error?.code, code, `code ${code}`);
  t.type(res.body.error.message, 'string');
  t.ok(res.headers.get('x-request-id'));
  t.equal(res.body.error.request_id, res.headers.get('x-request-id'), 'request_id matches X-Request-Id');
}
type Asserts = Pick<typeof t, 'equal' | 'ok' | 'type'>;

const postKeys = (opts: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) => h.api.call('POST', '/v1/keys', { key: admin.key, ...opts });

t.test('malformed JSON', async (t) => {
  for (const rawBody of ['{"name":', '{name: "x"}', 'not json', '{"a":1}}']) {
    const res = await postKeys({ rawBody, headers: { 'content-type': 'application/json' } });
    isError(t, res, 400, 'malformed_json');
  }
});

t.test('a body is read only once the caller is authenticated: a request without a key gets its 401, whatever it sends', async (t) => {
  for (const [rawBody, type] of [
    ['{"name":', 'application/json'],
    ['{"name":"x"}', 'text/plain'],
    [JSON.stringify({ pad: 'p'.repeat(8000) }), 'application/json'],
  ]) {
    const anonymous = await h.api.call('POST', '/v1/synonyms', { rawBody, headers: { 'content-type': type } });
    isError(t, anonymous, 401, 'key_missing');
    const badKey = await h.api.call('POST', '/v1/synonyms', { key: 'sk_live_notakey', rawBody, headers: { 'content-type': type } });
    t.equal(badKey.status, 401, `a wrong key: 401 before the body (${type}, ${rawBody.length} bytes)`);
  }
});

t.test('wrong types, missing and unknown fields', async (t) => {
  const types = await postKeys({ body: { name: 5, kind: 'secret', scopes: 'search' } });
  isError(t, types, 400, 'validation_failed');
  t.match(types.body.error.details, [
    { in: 'body', field: 'name', code: 'invalid_type' },
    { in: 'body', field: 'scopes', code: 'invalid_type' },
  ]);

  const missing = await postKeys({ body: { name: 'no kind' } });
  isError(t, missing, 400, 'validation_failed');
  t.match(missing.body.error.details, [{ field: 'kind', code: 'required' }]);

  const enumBad = await postKeys({ body: { name: 'x', kind: 'private' } });
  t.match(enumBad.body.error.details, [{ field: 'kind', code: 'invalid_value' }]);

  const badScope = await postKeys({ body: { name: 'x', kind: 'secret', scopes: ['search', 'root'] } });
  t.match(badScope.body.error.details, [{ field: 'scopes.1' }]);

  const tooLong = await postKeys({ body: { name: 'n'.repeat(101), kind: 'secret' } });
  isError(t, tooLong, 400, 'validation_failed');
  t.match(tooLong.body.error.details, [{ field: 'name', code: 'too_long' }]);
  t.equal((await postKeys({ body: { name: 'n'.repeat(100), kind: 'secret' } })).status, 201, '100 characters are fine');

  const unknown = await postKeys({ body: { name: 'x', kind: 'secret', colour: 'red', tier: 1 } });
  isError(t, unknown, 400, 'validation_failed');
  t.match(unknown.body.error.details, [
    { field: 'colour', code: 'unknown_field' },
    { field: 'tier', code: 'unknown_field' },
  ]);

  const notObject = await postKeys({ body: ['x'] });
  isError(t, notObject, 400, 'validation_failed');
  const nullBody = await postKeys({ rawBody: 'null', headers: { 'content-type': 'application/json' } });
  isError(t, nullBody, 400, 'validation_failed');

  const badQuery = await h.api.call('GET', '/v1/jobs?limit=abc&status=nope', { key: admin.key });
  isError(t, badQuery, 400, 'validation_failed');
  const byField = Object.fromEntries(badQuery.body.error.details.map((d: { field: string }) => [d.field, d]));
  t.match(byField, { limit: { in: 'query', code: 'invalid_type' }, status: { in: 'query', code: 'invalid_value' } });

  const badDate = await postKeys({ body: { name: 'x', kind: 'secret', expires_at: 'tomorrow' } });
  isError(t, badDate, 400, 'validation_failed');
  t.match(badDate.body.error.details, [{ field: 'expires_at' }]);
});

t.test('bodies over the limit', async (t) => {
  const big = await postKeys({ body: { name: 'x', kind: 'secret', pad: 'p'.repeat(4000) } });
  isError(t, big, 413, 'payload_too_large');

  // No Content-Length: the limit holds while streaming too.
  const chunks = async function* () {
    for (let i = 0; i < 8; i++) yield new TextEncoder().encode(`${' '.repeat(511)}\n`);
  };
  const res = await fetch(`${h.api.url}/v1/keys`, {
    method: 'POST',
    body: chunks() as unknown as BodyInit,
    duplex: 'half',
    headers: { authorization: `Bearer ${admin.key}`, 'content-type': 'application/json' },
  } as RequestInit);
  t.equal(res.status, 413);
  t.equal(((await res.json()) as { error: { code: string } }).error.code, 'payload_too_large');
});

t.test('wrong content type', async (t) => {
  const res = await postKeys({ rawBody: 'name=x&kind=secret', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  isError(t, res, 415, 'unsupported_media_type');
  const text = await postKeys({ rawBody: '{"name":"x","kind":"secret"}', headers: { 'content-type': 'text/plain' } });
  isError(t, text, 415, 'unsupported_media_type');
  const charset = await postKeys({ rawBody: '{"name":"cs","kind":"secret"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
  t.equal(charset.status, 201, 'application/json with a charset is fine');
});

t.test('method not allowed and unknown route', async (t) => {
  const put = await h.api.call('PUT', '/v1/keys', { key: admin.key, body: {} });
  isError(t, put, 405, 'method_not_allowed');
  t.match(put.headers.get('allow') ?? '', /GET/);
  t.match(put.headers.get('allow') ?? '', /POST/);
  const del = await h.api.call('DELETE', '/v1/jobs', { key: admin.key });
  isError(t, del, 405, 'method_not_allowed');
  isError(t, await h.api.call('GET', '/v1/keys/abc/nothing', { key: admin.key }), 404, 'route_not_found');
  isError(t, await h.api.call('GET', '/V1/keys', { key: admin.key }), 404, 'route_not_found');
  isError(t, await h.api.call('GET', '/v1/Keys', { key: admin.key }), 404, 'route_not_found');
});

t.test('auth errors have the same shape', async (t) => {
  isError(t, await h.api.call('GET', '/v1/keys'), 401, 'key_missing');
  isError(t, await h.api.call('GET', '/v1/keys', { key: 'sk_live_nope' }), 401, 'key_invalid');
  isError(t, await h.api.call('GET', '/v1/keys/key_x', { key: admin.key }), 405, 'method_not_allowed');
  const long = await h.api.call('PATCH', `/v1/keys/${'k'.repeat(65)}`, { key: admin.key, body: {} });
  isError(t, long, 400, 'validation_failed');
});

t.test('text Postgres cannot store is a 400, not a 500', async (t) => {
  isError(t, await postKeys({ body: { name: 'nul\u0000name', kind: 'secret' } }), 400, 'invalid_text');
  isError(t, await h.api.call('GET', '/v1/jobs/job%00x', { key: admin.key }), 400, 'invalid_text');
  isError(t, await h.api.call('DELETE', '/v1/keys/key%00x', { key: admin.key }), 400, 'invalid_text');
  t.equal((await h.api.call('GET', '/readyz')).status, 200, 'the pool is fine afterwards');
});

t.test('an incoming well-formed X-Request-Id is echoed', async (t) => {
  const res = await h.api.call('GET', '/v1/keys', { headers: { 'x-request-id': 'client-req-12345' } });
  isError(t, res, 401, 'key_missing');
  t.equal(res.body.error.request_id, 'client-req-12345');
  const junk = await h.api.call('GET', '/v1/keys', { headers: { 'x-request-id': 'bad id with spaces' } });
  t.match(junk.headers.get('x-request-id'), /^req_/, 'a junk id is replaced');
});

t.test('rate limit per key answers 429 with Retry-After', async (t) => {
  const hr = await setup({ RATE_LIMIT_SECRET_PER_S: '5' });
  t.teardown(() => hr.close());
  const tenant = await hr.tenant();
  const replies = await Promise.all(Array.from({ length: 20 }, () => hr.api.call('GET', '/v1/jobs', { key: tenant.key })));
  const limited = replies.filter((r) => r.status === 429);
  t.ok(limited.length > 0, 'some requests were limited');
  t.ok(replies.filter((r) => r.status === 200).length >= 1, 'some got through');
  t.ok(
    replies.every((r) => r.status === 200 || r.status === 429),
    'nothing else',
  );
  for (const r of limited) {
    isError(t, r, 429, 'rate_limited');
    t.ok(Number(r.headers.get('retry-after')) >= 1, 'Retry-After >= 1');
  }
});

t.test('requests Node refuses before Koa (URL or headers over 16 KiB) still get the error body', async (t) => {
  const res = await h.api.call('GET', `/v1/search?q=${'a'.repeat(20_000)}`, { key: admin.key });
  t.equal(res.status, 431);
  t.equal(res.body.error.code, 'headers_too_large');
  t.equal(res.body.error.request_id, res.headers.get('x-request-id'));
  t.equal((await h.api.call('GET', '/healthz')).status, 200);
});

t.test('an unknown query parameter is refused on every /v1 route, as on the lists and search', async (t) => {
  // GET /v1/usage?period=2026-10 answered this month's usage, POST /v1/reindex?mode=settings_only ran a full reindex: routes without query parameters ignored any.
  const { allRoutes } = await import('../../api/app.js');
  const usage = await h.api.call('GET', '/v1/usage?period=2026-10', { key: admin.key });
  isError(t, usage, 400, 'validation_failed');
  t.match(usage.body.error.details, [{ in: 'query', field: 'period', code: 'unknown_field' }]);
  const reindex = await h.api.call('POST', '/v1/reindex?mode=settings_only', { key: admin.key, body: {} });
  isError(t, reindex, 400, 'validation_failed');
  for (const r of allRoutes(h.api.deps)) {
    if (!r.path.startsWith('/v1/') || r.path.startsWith('/v1/billing/webhooks/')) continue;
    const path = r.path.replace(/\{(\w+)\}/g, 'nothing_here');
    const res = await h.api.call(r.method.toUpperCase(), `${path}?unexpected_param=1`, {
      key: admin.key,
      body: ['post', 'put', 'patch'].includes(r.method) ? {} : undefined,
    });
    t.equal(res.status, 400, `${r.method.toUpperCase()} ${r.path}`);
    if (res.status === 400)
      t.ok(
        res.body.error.details?.some((d: { field: string; code: string }) => d.field === 'unexpected_param' && d.code === 'unknown_field'),
        `${r.method.toUpperCase()} ${r.path}: unknown_field`,
      );
  }
  t.equal((await h.api.call('GET', '/v1/usage', { key: admin.key })).status, 200, 'without it the route answers');
});

t.test('OPTIONS without a CORS preflight answers which methods the path takes, and 405s list OPTIONS', async (t) => {
  // RFC 9110 9.3.7: OPTIONS asks for a path's methods. It answered 405 method_not_allowed, with an Allow that left OPTIONS out though preflights are answered.
  const options = await h.api.call('OPTIONS', '/v1/keys');
  t.equal(options.status, 204);
  t.same((options.headers.get('allow') ?? '').split(', ').sort(), ['GET', 'HEAD', 'OPTIONS', 'POST']);
  const withId = await h.api.call('OPTIONS', '/v1/keys/key_x');
  t.same((withId.headers.get('allow') ?? '').split(', ').sort(), ['DELETE', 'OPTIONS', 'PATCH']);
  isError(t, await h.api.call('OPTIONS', '/v1/nothing'), 404, 'route_not_found');
  const put = await h.api.call('PUT', '/v1/keys', { key: admin.key, body: {} });
  isError(t, put, 405, 'method_not_allowed');
  t.match(put.headers.get('allow') ?? '', /OPTIONS/);
});
