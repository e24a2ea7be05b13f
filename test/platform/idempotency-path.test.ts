import t from 'tap';
import { setup } from '../helpers/harness.js';

// The Idempotency-Key fingerprint takes the path the router matched: the same resource written
// another way (percent-escapes, their case, a trailing slash) is the same request.
const h = await setup();
t.teardown(() => h.close());
const a = await h.tenant('Store A');
const db = h.api.deps.db;

const upsert = (ids: string[]) =>
  h.api.call('POST', '/v1/products/batch', {
    key: a.key,
    body: { upsert: ids.map((id) => ({ id, name: { en: `Kettle ${id}` }, price: 5, currency: 'USD' })) },
  });
const del = (path: string, idem: string) => h.api.call('DELETE', path, { key: a.key, headers: { 'idempotency-key': idem } });
const exists = async (id: string) => !!(await db('products').where({ tenant_id: a.id, id }).first());

t.test('a retry written with other escapes replays the first answer', async (t) => {
  t.equal((await upsert(['kettle-1', 'قدر-1', 'kettle-2'])).status, 200);
  const first = await del('/v1/products/kettle-1', 'delete-path-0001');
  t.equal(first.status, 200);
  t.notOk(await exists('kettle-1'));
  for (const path of ['/v1/products/%6Bettle-1', '/v1/products/%6b%65ttle%2D1', '/v1/products/kettle-1/']) {
    const again = await del(path, 'delete-path-0001');
    t.equal(again.status, 200, `${path}: ${JSON.stringify(again.body)}`);
    t.same(again.body, first.body, `${path}: the first answer`);
    t.equal(again.headers.get('idempotent-replayed'), 'true', `${path}: replayed`);
  }

  const arabic = encodeURIComponent('قدر-1');
  const firstAr = await del(`/v1/products/${arabic}`, 'delete-path-0002');
  t.equal(firstAr.status, 200);
  const lower = await del(`/v1/products/${arabic.toLowerCase()}`, 'delete-path-0002');
  t.equal(lower.status, 200, 'lower-case escapes of the same UTF-8');
  t.equal(lower.headers.get('idempotent-replayed'), 'true');
  t.same(lower.body, firstAr.body);
});

t.test('another resource under the same key is still refused', async (t) => {
  const other = await del('/v1/products/kettle-2', 'delete-path-0001');
  t.equal(other.status, 409);
  t.equal(other.body.error.code, 'idempotency_key_reused');
  t.ok(await exists('kettle-2'), 'not deleted');
  // An escaped slash is part of one id, not a second segment.
  t.equal((await upsert(['a/b'])).status, 200);
  const slash = await del('/v1/products/a%2Fb', 'delete-path-0003');
  t.equal(slash.status, 200);
  t.notOk(await exists('a/b'));
});
