import t from 'tap';
import { setup } from '../helpers/harness.js';
import { jsonTooDeepAt, MAX_JSON_DEPTH } from '../../shared/platform/json-text.js';

// Issue 12, item 4: a 10 KB body nested 5,000 levels overflowed the stack in the canonical-JSON
// recursion (500). Nesting is limited on the raw text, for every route, before anything recurses.
const h = await setup();
t.teardown(() => h.close());
const { key } = await h.tenant();
const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}1${close.repeat(depth)}`;

t.test('depth scan: strings are skipped, escapes respected', async (t) => {
  t.equal(jsonTooDeepAt(nested(MAX_JSON_DEPTH)), -1);
  t.equal(jsonTooDeepAt(nested(MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH);
  t.equal(jsonTooDeepAt('{"a\\\\":"[[[[\\"[[[","b":[[1]]}', 3), -1, 'brackets inside strings do not count');
  t.equal(jsonTooDeepAt('[["\\\\"],[[1]]]', 2), 9, 'an escaped backslash ends before the closing quote');
});

t.test('5,000 levels (10 KB) on every kind of route: 400 json_too_deep, no 500', async (t) => {
  const deep = `{"upsert":${nested(5000)}}`;
  t.ok(deep.length < 11_000);
  for (const [method, path] of [
    ['POST', '/v1/products/batch'],
    ['POST', '/v1/keys'],
    ['POST', '/v1/search'],
    ['PUT', '/v1/attributes/mapping'],
    ['POST', '/v1/events'],
    ['POST', '/v1/synonyms/import'],
  ]) {
    const res = await h.api.call(method, path, {
      key,
      rawBody: deep,
      headers: { 'content-type': 'application/json', 'idempotency-key': `deep-${path.replace(/\W/g, '')}` },
    });
    t.equal(res.status, 400, `${method} ${path}`);
    t.equal(res.body.error.code, 'json_too_deep', `${method} ${path}`);
    t.same(res.body.error.details, { max_depth: MAX_JSON_DEPTH });
  }
  const objects = await h.api.call('POST', '/v1/products/batch', {
    key,
    rawBody: `{"upsert":[{"id":"p","extra":${nested(5000, '{"a":', '}')}}]}`,
    headers: { 'content-type': 'application/json' },
  });
  t.equal(objects.body.error.code, 'json_too_deep', 'objects as deep as arrays');
});

t.test('a product with nesting under the limit is stored as sent', async (t) => {
  const extra = JSON.parse(nested(MAX_JSON_DEPTH - 5));
  const res = await h.api.call('POST', '/v1/products/batch', {
    key,
    body: { upsert: [{ id: 'p1', name: { en: 'Deep' }, price: 1, currency: 'USD', extra: { x: extra } }] },
  });
  t.equal(res.status, 200);
  t.equal(res.body.upserted, 1);
});

t.test('a json synonym import nested too deep is unreadable, with its line', async (t) => {
  const content = `[\n{"kind":"equivalent","terms":["a","b"]},\n{"kind":"equivalent","terms":${nested(200)}}\n]`;
  const res = await h.api.call('POST', '/v1/synonyms/import', { key, body: { format: 'json', content } });
  t.equal(res.status, 400);
  t.equal(res.body.error.code, 'invalid_import_content');
  t.match(JSON.stringify(res.body.error.details), /json_too_deep/);
});
