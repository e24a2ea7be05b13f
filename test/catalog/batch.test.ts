import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';

const { h } = await setupWithWorkers();
const { id: tenantId, key } = await h.tenant();
const post = (body: unknown, headers: Record<string, string> = {}) => h.api.call('POST', '/v1/products/batch', { key, body, headers });
const product = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: { en: `Product ${id}` }, price: 10, currency: 'USD', ...extra });
const engineIds = async (tokens: string[], tenant = tenantId) =>
  (await h.api.deps.engine.search({ tenantId: tenant, tokens, offset: 0, limit: 50 })).hits.map((x) => x.id).sort();

t.test('valid items are stored next to per-item errors', async (t) => {
  const res = await post({
    upsert: [
      product('p1', { price: '19.90', sale_price: 15, extra: { x: [1, { y: 2 }] }, margin: 0.3 }),
      { id: 'bad1', name: { en: 'x' }, price: -1, currency: 'USD' },
      product('p2', { currency: 'usd' }),
      product('p1'),
      { id: '', name: { en: 'x' }, price: 1, currency: 'USD' },
      product('p3', { unknown_field: 1 }),
      product('p4', { brand: 'b'.repeat(201) }),
    ],
  });
  t.equal(res.status, 200);
  t.equal(res.body.upserted, 1);
  t.same(
    res.body.errors.map((e: { index: number; code: string }) => [e.index, e.code]),
    [
      [1, 'invalid_product'],
      [2, 'invalid_product'],
      [3, 'duplicate_id'],
      [4, 'invalid_product'],
      [5, 'unknown_field'],
      [6, 'invalid_product'],
    ],
  );
  t.equal(res.body.errors[0].id, 'bad1');
  t.match(res.body.errors[0].message, /price/);
  const got = await h.api.call('GET', '/v1/products/p1', { key });
  t.equal(got.status, 200);
  t.equal(got.body.product.price, '19.90');
  t.equal(got.body.product.sale_price, '15');
  t.equal(got.body.product.in_stock, true);
  t.equal(got.body.product.visible, true);
  t.same(got.body.product.extra, { x: [1, { y: 2 }] });
  t.notOk('margin' in got.body.product, 'margin is never shown');
  t.match(got.body.content_hash, /^[0-9a-f]{32}$/);
});

t.test('more than 1,000 items is a whole-call error that writes nothing', async (t) => {
  const upsert = Array.from({ length: 600 }, (_, i) => product(`big${i}`));
  const del = Array.from({ length: 401 }, (_, i) => `gone${i}`);
  const res = await post({ upsert, delete: del });
  t.equal(res.status, 400);
  t.equal(res.body.error.code, 'batch_too_large');
  t.equal((await h.api.call('GET', '/v1/products/big0', { key })).status, 404);
});

t.test('re-sending the same products counts them unchanged with no write and no index work', async (t) => {
  const items = [product('u1', { brand: 'Acme' }), product('u2')];
  const first = await post({ upsert: items });
  t.equal(first.body.upserted, 2);
  await eventually(async () => (await h.api.deps.repos.products.find(tenantId, 'u2'))?.indexed_at);
  const before = await h.api.deps.repos.products.find(tenantId, 'u1');
  const again = await post({ upsert: items });
  t.same([again.body.upserted, again.body.unchanged, again.body.visible_within_s], [0, 2, 0]);
  const after = await h.api.deps.repos.products.find(tenantId, 'u1');
  t.equal(after!.updated_at.getTime(), before!.updated_at.getTime(), 'no write');
  t.equal(after!.indexed_at!.getTime(), before!.indexed_at!.getTime(), 'no reindex');
  const changed = await post({ upsert: [product('u1', { brand: 'Other' })] });
  t.equal(changed.body.upserted, 1);
});

t.test('Idempotency-Key replays the first answer', async (t) => {
  const body = { upsert: [product('i1')] };
  const a = await post(body, { 'idempotency-key': 'batch-key-0001' });
  const b = await post(body, { 'idempotency-key': 'batch-key-0001' });
  t.same(b.body, a.body);
  t.equal(b.headers.get('idempotent-replayed'), 'true');
  const c = await post({ upsert: [product('i2')] }, { 'idempotency-key': 'batch-key-0001' });
  t.equal(c.status, 409);
  // The request hash covers the items as stored: keys in another order replay; any other item, delete or flag is another request.
  const reordered = await post({ upsert: [{ currency: 'USD', price: 10, name: { en: 'Product i1' }, id: 'i1' }] }, { 'idempotency-key': 'batch-key-0001' });
  t.equal(reordered.headers.get('idempotent-replayed'), 'true');
  t.same(reordered.body, a.body);
  for (const other of [
    { upsert: [product('i1', { price: 11 })] },
    { upsert: [product('i1')], delete: ['i9'] },
    { upsert: [product('i1')], replace_all: true, sync_complete: true },
    { upsert: [product('i1'), product('i1')] },
    { upsert: [product('i1', { price: -1 })] },
  ]) {
    t.equal((await post(other, { 'idempotency-key': 'batch-key-0001' })).status, 409, JSON.stringify(other));
  }
  // A refused item is covered by its own text.
  const bad = { upsert: [product('i3', { price: -1 })] };
  const d = await post(bad, { 'idempotency-key': 'batch-key-0002' });
  t.equal(d.body.errors[0].code, 'invalid_product');
  t.equal((await post(bad, { 'idempotency-key': 'batch-key-0002' })).headers.get('idempotent-replayed'), 'true');
  t.equal((await post({ upsert: [product('i3', { price: -2 })] }, { 'idempotency-key': 'batch-key-0002' })).status, 409);
});

t.test('a key claimed with the body hash of before (a retry across a deploy) still replays', async (t) => {
  const { canonicalJson, sha256 } = await import('../../shared/platform/ids.js');
  const body = { upsert: [product('d1')] };
  const first = await post(body, { 'idempotency-key': 'batch-key-0003' });
  t.equal(first.status, 200);
  const legacy = sha256(`POST /v1/products/batch\n${canonicalJson(body)}`);
  await h.api.deps.db('idempotency_keys').where({ tenant_id: tenantId, key: 'batch-key-0003' }).update({ request_hash: legacy });
  const again = await post(body, { 'idempotency-key': 'batch-key-0003' });
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.same(again.body, first.body);
  t.equal((await post({ upsert: [product('d2')] }, { 'idempotency-key': 'batch-key-0003' })).status, 409);
});

t.test('a product is searchable within 5 s and a delete leaves search at once', async (t) => {
  await post({ upsert: [product('s1', { name: { en: 'Zephyrine kettle', ar: 'غلاية زفيرين' } })] });
  await eventually(async () => (await engineIds(['zephyrine'])).includes('s1'), 5000);
  t.same(await engineIds(['غلايه']), ['s1'], 'Arabic name normalized (ة -> ه)');
  const del = await h.api.call('DELETE', '/v1/products/s1', { key });
  t.equal(del.status, 200);
  t.same(await engineIds(['zephyrine']), [], 'gone without waiting for a worker');
  t.equal((await h.api.call('DELETE', '/v1/products/s1', { key })).status, 404);
});

t.test('replace_all deletes exactly the unsent products, only when the sync completes', async (t) => {
  const { id: tid, key: k } = await h.tenant('sync store');
  const send = (body: unknown) => h.api.call('POST', '/v1/products/batch', { key: k, body });
  await send({ upsert: ['a', 'b', 'c', 'd'].map((id) => product(id)) });
  const b1 = await send({ replace_all: true, sync_id: 'full-1', upsert: [product('a'), product('b', { price: 11 })] });
  t.same([b1.body.upserted, b1.body.unchanged, b1.body.deleted], [1, 1, 0]);
  const other = await send({ replace_all: true, sync_id: 'never-completes', upsert: [product('e')] });
  t.equal(other.body.deleted, 0);
  t.equal(await h.api.deps.repos.products.count(tid), 5, 'nothing deleted before completion');
  const done = await send({ replace_all: true, sync_id: 'full-1', sync_complete: true, upsert: [product('f')] });
  t.equal(done.body.deleted, 2, 'c and d');
  const left = (await h.api.call('GET', '/v1/products?limit=10', { key: k })).body.data.map((p: { id: string }) => p.id);
  t.same(left, ['a', 'b', 'e', 'f'], 'e came from another sync started later and survives');
});

t.test('a full sync keeps a product it sent that the batch refused (its stored version stays)', async (t) => {
  const { key: k } = await h.tenant('sync refused store');
  const send = (body: unknown) => h.api.call('POST', '/v1/products/batch', { key: k, body });
  await send({ upsert: ['k1', 'k2', 'k3'].map((id) => product(id)) });
  const done = await send({
    replace_all: true,
    sync_id: 'full-2',
    sync_complete: true,
    upsert: [product('k1'), { ...product('k2'), price: -5 }, { id: 'k3', name: 'not a map' }],
  });
  t.same(
    done.body.errors.map((e: { id: string; code: string }) => [e.id, e.code]),
    [
      ['k2', 'invalid_product'],
      ['k3', 'invalid_product'],
    ],
  );
  t.equal(done.body.deleted, 0, 'k2 and k3 were sent: refused, not missing');
  for (const id of ['k1', 'k2', 'k3']) {
    const got = await h.api.call('GET', `/v1/products/${id}`, { key: k });
    t.equal(got.status, 200, `${id} is kept`);
    t.equal(got.body.product.price, '10', `${id} keeps its stored version`);
  }
});

t.test('tenants never see each other in the engine or the API', async (t) => {
  const other = await h.tenant('other');
  await h.api.call('POST', '/v1/products/batch', { key: other.key, body: { upsert: [product('x1', { name: { en: 'Quokkaphone' } })] } });
  await eventually(async () => (await engineIds(['quokkaphone'], other.id)).length === 1);
  t.same(await engineIds(['quokkaphone']), []);
  t.equal((await h.api.call('GET', '/v1/products/x1', { key })).status, 404);
  t.equal((await h.api.call('DELETE', '/v1/products/x1', { key })).status, 404);
});

t.test('product list pages are stable and q filters by name', async (t) => {
  const { key: k } = await h.tenant('list store');
  await h.api.call('POST', '/v1/products/batch', {
    key: k,
    body: { upsert: Array.from({ length: 7 }, (_, i) => product(`l${i}`, i === 3 ? { name: { en: 'Special widget' } } : {})) },
  });
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res: { body: { data: Array<{ id: string }>; next_cursor: string | null } } = await h.api.call(
      'GET',
      `/v1/products?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      { key: k },
    );
    seen.push(...res.body.data.map((p) => p.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  t.same(seen, ['l0', 'l1', 'l2', 'l3', 'l4', 'l5', 'l6']);
  const q = await h.api.call('GET', '/v1/products?q=widget', { key: k });
  t.same(
    q.body.data.map((p: { id: string }) => p.id),
    ['l3'],
  );
  t.equal((await h.api.call('GET', '/v1/products?limit=201', { key: k })).status, 400);
});

t.test('a numeric price past 12 digits is refused; a stored one is read back as the API takes it', async (t) => {
  const res = await post({ upsert: [product('np1', { price: 1e21 }), product('np2', { price: 1e-7, sale_price: 0.1 + 0.2 })] });
  t.same(
    res.body.errors.map((e: { id: string; code: string }) => [e.id, e.code]),
    [['np1', 'invalid_product']],
  );
  t.match(res.body.errors[0].message, /price/);
  const got = (await h.api.call('GET', '/v1/products/np2', { key })).body.product;
  t.same([got.price, got.sale_price], ['0', '0.3']);
  const again = await post({ upsert: [product('np2', { price: got.price, sale_price: got.sale_price })] });
  t.same([again.body.errors, again.body.unchanged], [[], 1], 'sent back as read, the product is the same');
});
