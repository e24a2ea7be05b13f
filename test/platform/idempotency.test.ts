import t from 'tap';
import { setup } from '../helpers/harness.js';

const h = await setup();
t.teardown(() => h.close());
const a = await h.tenant('Store A');
const b = await h.tenant('Store B');
const db = h.api.deps.db;

const post = (key: string, idem: string, body: unknown) => h.api.call('POST', '/v1/keys', { key, body, headers: { 'idempotency-key': idem } });
const countKeys = async (tenantId: string, name: string) => Number((await db('api_keys').where({ tenant_id: tenantId, name }).count().first())!.count);

t.test('a retry replays the first answer and creates nothing', async (t) => {
  const body = { name: 'replayed', kind: 'secret' };
  const first = await post(a.key, 'create-key-0001', body);
  t.equal(first.status, 201);
  t.equal(first.headers.get('idempotent-replayed'), null);
  const again = await post(a.key, 'create-key-0001', { kind: 'secret', name: 'replayed' });
  t.equal(again.status, 201, 'same status');
  t.same(again.body, first.body, 'same body, including the full key');
  t.equal(again.body.key, first.body.key);
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.equal(await countKeys(a.id, 'replayed'), 1, 'one row');
});

t.test('the same key with another body is refused', async (t) => {
  t.equal((await post(a.key, 'create-key-0002', { name: 'first', kind: 'secret' })).status, 201);
  const other = await post(a.key, 'create-key-0002', { name: 'second', kind: 'secret' });
  t.equal(other.status, 409);
  t.equal(other.body.error.code, 'idempotency_key_reused');
  t.equal(await countKeys(a.id, 'second'), 0);
});

t.test('10 concurrent identical requests create one key', async (t) => {
  const body = { name: 'concurrent', kind: 'secret' };
  const replies = await Promise.all(Array.from({ length: 10 }, () => post(a.key, 'create-key-0003', body)));
  t.equal(await countKeys(a.id, 'concurrent'), 1, 'exactly one row');
  const created = replies.filter((r) => r.status === 201);
  t.ok(created.length >= 1, 'at least the first answered 201');
  const keys = new Set(created.map((r) => r.body.key));
  t.equal(keys.size, 1, 'every 201 carries the same key');
  for (const r of replies) {
    if (r.status === 201) continue;
    t.equal(r.status, 409);
    t.equal(r.body.error.code, 'idempotency_in_progress');
    t.equal(r.headers.get('retry-after'), '1');
  }
  const row = await db('api_keys').where({ tenant_id: a.id, name: 'concurrent' }).first();
  t.equal(created[0].body.id, row.id);
});

t.test('malformed Idempotency-Key values are refused before anything runs', async (t) => {
  for (const bad of ['', 'short', 'has space in it', 'bad/chars!?', 'x'.repeat(256)]) {
    const res = await post(a.key, bad, { name: 'bad idem', kind: 'secret' });
    t.equal(res.status, 400, JSON.stringify(bad));
    t.equal(res.body.error.code, 'invalid_idempotency_key');
  }
  t.equal(await countKeys(a.id, 'bad idem'), 0);
  const edge = await post(a.key, `${'A'.repeat(250)}_-:.9`, { name: 'long idem', kind: 'secret' });
  t.equal(edge.status, 201, '255 allowed characters are fine');
});

t.test("another tenant's use of the same key is independent", async (t) => {
  const body = { name: 'shared idem', kind: 'secret' };
  const ra = await post(a.key, 'create-key-0004', body);
  const rb = await post(b.key, 'create-key-0004', body);
  t.equal(ra.status, 201);
  t.equal(rb.status, 201);
  t.equal(rb.headers.get('idempotent-replayed'), null, 'not a replay of A');
  t.not(rb.body.id, ra.body.id);
  t.equal(await countKeys(a.id, 'shared idem'), 1);
  t.equal(await countKeys(b.id, 'shared idem'), 1);
  const other = await post(b.key, 'create-key-0005', { name: 'b other', kind: 'secret' });
  const reuse = await post(a.key, 'create-key-0005', { name: 'a other', kind: 'secret' });
  t.equal(other.status, 201);
  t.equal(reuse.status, 201, "B's key does not block A");
});

t.test('a request refused as invalid does not use up the key', async (t) => {
  const schemaBad = await post(a.key, 'create-key-0006', { name: 'x'.repeat(101), kind: 'secret' });
  t.equal(schemaBad.status, 400);
  t.equal(schemaBad.body.error.code, 'validation_failed');
  const fixed = await post(a.key, 'create-key-0006', { name: 'fixed', kind: 'secret' });
  t.equal(fixed.status, 201, 'retry with the fixed body runs');
  t.equal(fixed.headers.get('idempotent-replayed'), null);

  // Rules checked by the handler (public keys may not hold catalog scopes) count as invalid too.
  const ruleBad = await post(a.key, 'create-key-0007', { name: 'web', kind: 'public', scopes: ['catalog:write'], allowed_origins: ['https://shop.example'] });
  t.equal(ruleBad.status, 400);
  t.equal(ruleBad.body.error.code, 'validation_failed');
  const ruleFixed = await post(a.key, 'create-key-0007', { name: 'web', kind: 'public', scopes: ['search'], allowed_origins: ['https://shop.example'] });
  t.equal(ruleFixed.status, 201, 'retry with the fixed body runs');
  t.same(ruleFixed.body.scopes, ['search']);

  const malformed = await h.api.call('POST', '/v1/keys', {
    key: a.key,
    rawBody: '{"name":',
    headers: { 'idempotency-key': 'create-key-0008', 'content-type': 'application/json' },
  });
  t.equal(malformed.status, 400);
  t.equal((await post(a.key, 'create-key-0008', { name: 'after malformed', kind: 'secret' })).status, 201);

  // Any 400, whatever its code (here a file the import cannot read), refused the request before it ran.
  const importFile = (content: string) =>
    h.api.call('POST', '/v1/synonyms/import', { key: a.key, body: { format: 'json', content }, headers: { 'idempotency-key': 'import-file-0009' } });
  const unreadable = await importFile('[{');
  t.same([unreadable.status, unreadable.body.error.code], [400, 'invalid_import_content']);
  const read = await importFile('[{"kind":"equivalent","terms":["sofa","couch"]}]');
  t.equal(read.status, 200, 'the corrected file runs under the same key');
  t.equal(read.body.created, 1);
});

t.test('a request refused by auth stores nothing', async (t) => {
  const plain = (await post(a.key, 'create-key-0009', { name: 'no admin', kind: 'secret' })).body;
  const first = await post(plain.key, 'create-key-0010', { name: 'denied', kind: 'secret' });
  t.equal(first.status, 403, 'auth runs before idempotency');
  t.equal(await db('idempotency_keys').where({ tenant_id: a.id, key: 'create-key-0010' }).first(), undefined, 'not stored');
});

t.test('a replay carries the headers the first answer set (X-Job-Id of a mapping change)', async (t) => {
  const put = () => h.api.call('PUT', '/v1/attributes/mapping', { key: a.key, body: { items: [] }, headers: { 'idempotency-key': 'mapping-0001' } });
  const first = await put();
  t.equal(first.status, 200);
  t.match(first.headers.get('x-job-id'), /\S/, 'the first answer names its reindex job');
  const again = await put();
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.equal(again.status, first.status);
  t.same(again.body, first.body);
  t.equal(again.headers.get('x-job-id'), first.headers.get('x-job-id'), 'the replay names the same job');
});

t.test('stored answers are kept for at least 24 hours', async (t) => {
  const rows = await db('idempotency_keys').where({ tenant_id: a.id });
  t.ok(rows.length >= 5);
  for (const row of rows) {
    t.equal(row.state, 'done', row.key);
    t.ok(row.expires_at.getTime() >= Date.now() + 24 * 3600_000 - 60_000, `${row.key} kept >= 24 h`);
  }
});
