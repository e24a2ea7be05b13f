import t from 'tap';
import { setup } from '../helpers/harness.js';
import { hashKey } from '../../shared/access/key-format.js';
import { DEFAULT_SECRET_SCOPES } from '../../shared/access/scopes.js';

const h = await setup();
t.teardown(() => h.close());
const admin = await h.tenant();
const db = h.api.deps.db;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const create = async (body: Record<string, unknown>, key = admin.key) => h.api.call('POST', '/v1/keys', { key, body });
/** A cheap authenticated call that a default secret key may make. */
const useKey = (key: string) => h.api.call('GET', '/v1/jobs', { key });

t.test('create a secret key: shown once, only its hash stored, default scopes', async (t) => {
  const res = await create({ name: 'server', kind: 'secret' });
  t.equal(res.status, 201);
  const k = res.body;
  t.match(k.key, /^sk_live_[A-Za-z0-9_-]{20,}$/);
  t.equal(k.prefix, k.key.slice(0, k.prefix.length));
  t.ok(k.prefix.length >= 8);
  t.equal(k.last4, k.key.slice(-4));
  t.same([...k.scopes].sort(), [...DEFAULT_SECRET_SCOPES].sort());
  t.notOk(k.scopes.includes('admin'));
  t.same(k.allowed_origins, []);
  t.equal(k.revoked_at, null);

  const row = await db('api_keys').where({ id: k.id }).first();
  t.equal(row.hash, hashKey(k.key));
  for (const [column, value] of Object.entries(row)) {
    t.notOk(JSON.stringify(value ?? null).includes(k.key), `column ${column} does not hold the key`);
  }
  t.equal((await useKey(k.key)).status, 200, 'the new key works');
});

t.test('create a public key: default scopes search + events', async (t) => {
  const res = await create({ name: 'web', kind: 'public', allowed_origins: ['https://shop.example'] });
  t.equal(res.status, 201);
  t.match(res.body.key, /^pk_live_/);
  t.same([...res.body.scopes].sort(), ['events', 'search']);
  t.same(res.body.allowed_origins, ['https://shop.example']);
});

t.test('create-time rules', async (t) => {
  const badScope = await create({ name: 'web', kind: 'public', scopes: ['search', 'catalog:write'] });
  t.equal(badScope.status, 400);
  t.equal(badScope.body.error.code, 'validation_failed');
  t.match(badScope.body.error.details, [{ field: 'scopes', code: 'scope_not_allowed' }]);

  const origins = await create({ name: 'srv', kind: 'secret', allowed_origins: ['https://shop.example'] });
  t.equal(origins.status, 400);
  t.match(origins.body.error.details, [{ field: 'allowed_origins' }]);

  const past = await create({ name: 'old', kind: 'secret', expires_at: new Date(Date.now() - 60_000).toISOString() });
  t.equal(past.status, 400);
  t.equal(past.body.error.code, 'validation_failed');
  t.match(past.body.error.details, [{ field: 'expires_at' }]);
  t.equal(
    await db('api_keys')
      .where({ tenant_id: admin.id })
      .whereIn('name', ['old', 'srv'])
      .count()
      .first()
      .then((r) => Number(r!.count)),
    0,
  );
});

t.test('an expires_at past year 9999 (UTC) is a 400, and the key list keeps answering', async (t) => {
  // Year 9999 in its own offset, year 10000 in UTC: Postgres stored it and every answer naming it failed.
  for (const at of ['9999-12-31T23:59:59-23:59', '9999-12-31T23:30:00-01:00']) {
    const res = await create({ name: 'far', kind: 'secret', expires_at: at });
    t.equal(res.status, 400, at);
    t.equal(res.body.error.code, 'validation_failed');
    t.match(res.body.error.details, [{ field: 'expires_at' }]);
  }
  t.equal((await create({ name: 'far', kind: 'secret', expires_at: '9999-12-31T23:59:59Z' })).status, 201, 'the last instant of 9999 is taken');
  t.equal((await h.api.call('GET', '/v1/keys', { key: admin.key })).status, 200);
});

t.test('list never includes the key', async (t) => {
  const res = await h.api.call('GET', '/v1/keys', { key: admin.key });
  t.equal(res.status, 200);
  t.ok(res.body.length >= 3);
  for (const k of res.body) {
    t.notOk('key' in k, `${k.id} has no key field`);
    t.notOk('hash' in k, `${k.id} has no hash field`);
  }
  t.ok(res.body.some((k: { id: string }) => k.id === admin.keyId));
});

t.test('patch name, scopes, origins; patching a revoked key is 409', async (t) => {
  const pub = (await create({ name: 'web', kind: 'public', allowed_origins: ['https://a.example'] })).body;
  const res = await h.api.call('PATCH', `/v1/keys/${pub.id}`, {
    key: admin.key,
    body: { name: 'web 2', scopes: ['search'], allowed_origins: ['https://b.example'] },
  });
  t.equal(res.status, 200);
  t.match(res.body, { id: pub.id, name: 'web 2', scopes: ['search'], allowed_origins: ['https://b.example'] });
  t.notOk('key' in res.body);
  const row = await db('api_keys').where({ id: pub.id }).first();
  t.same(row.scopes, ['search']);
  t.same(row.allowed_origins, ['https://b.example']);

  const bad = await h.api.call('PATCH', `/v1/keys/${pub.id}`, { key: admin.key, body: { scopes: ['admin'] } });
  t.equal(bad.status, 400, 'public key cannot get admin by patch');

  t.equal((await h.api.call('DELETE', `/v1/keys/${pub.id}`, { key: admin.key })).status, 200);
  const again = await h.api.call('PATCH', `/v1/keys/${pub.id}`, { key: admin.key, body: { name: 'x' } });
  t.equal(again.status, 409);
  t.equal(again.body.error.code, 'key_revoked');
});

t.test('delete revokes at once; unknown id is 404', async (t) => {
  const k = (await create({ name: 'tmp', kind: 'secret' })).body;
  t.equal((await useKey(k.key)).status, 200, 'warms the cache');
  const del = await h.api.call('DELETE', `/v1/keys/${k.id}`, { key: admin.key });
  t.equal(del.status, 200);
  t.same(del.body, { deleted: true, id: k.id });
  t.ok((await db('api_keys').where({ id: k.id }).first()).revoked_at, 'revoked_at set');
  const after = await useKey(k.key);
  t.equal(after.status, 401);
  t.equal(after.body.error.code, 'key_revoked');

  const unknown = await h.api.call('DELETE', '/v1/keys/key_doesnotexist00', { key: admin.key });
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, 'not_found');
});

t.test('rotate', async (t) => {
  t.test('grace 0: old key stops at once', async (t) => {
    const old = (await create({ name: 'r0', kind: 'secret' })).body;
    t.equal((await useKey(old.key)).status, 200);
    const res = await h.api.call('POST', `/v1/keys/${old.id}/rotate`, { key: admin.key, body: { grace_hours: 0 } });
    t.equal(res.status, 200);
    t.not(res.body.key, old.key);
    t.not(res.body.id, old.id);
    t.equal(res.body.last4, res.body.key.slice(-4));
    t.same(res.body.scopes, old.scopes);
    const oldUse = await useKey(old.key);
    t.equal(oldUse.status, 401);
    t.equal(oldUse.body.error.code, 'key_expired');
    t.equal((await useKey(res.body.key)).status, 200, 'new key works');
  });

  t.test('grace 1h: old key works until the window ends; second rotation is 409', async (t) => {
    const old = (await create({ name: 'r1', kind: 'secret' })).body;
    t.equal((await useKey(old.key)).status, 200);
    const res = await h.api.call('POST', `/v1/keys/${old.id}/rotate`, { key: admin.key, body: { grace_hours: 1 } });
    t.equal(res.status, 200);
    t.equal((await useKey(old.key)).status, 200, 'old key still works in the grace window');
    t.equal((await useKey(res.body.key)).status, 200);
    const row = await db('api_keys').where({ id: old.id }).first();
    const ahead = row.expires_at.getTime() - Date.now();
    t.ok(ahead > 55 * 60_000 && ahead <= 60 * 60_000, 'old key expires in about an hour');

    const twice = await h.api.call('POST', `/v1/keys/${old.id}/rotate`, { key: admin.key, body: {} });
    t.equal(twice.status, 409);
    t.equal(twice.body.error.code, 'key_already_rotated');

    await db('api_keys')
      .where({ id: old.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await h.api.deps.auth.invalidate(hashKey(old.key));
    const ended = await useKey(old.key);
    t.equal(ended.status, 401);
    t.equal(ended.body.error.code, 'key_expired');
  });

  t.test('an expired key is not rotated: 409, and no successor that would be expired from birth', async (t) => {
    const k = (await create({ name: 'r-exp', kind: 'secret' })).body;
    await db('api_keys')
      .where({ id: k.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await h.api.call('POST', `/v1/keys/${k.id}/rotate`, { key: admin.key, body: {} });
    t.equal(res.status, 409);
    t.equal(res.body.error.code, 'key_expired');
    t.notOk((await db('api_keys').where({ id: k.id }).first()).replaced_by, 'nothing rotated');
  });

  t.test('a patch that lands while a rotation is under way carries over to the successor', async (t) => {
    const k = (await create({ name: 'race', kind: 'secret', scopes: ['jobs', 'catalog:write'] })).body;
    const stale = (await h.api.deps.repos.keys.find(admin.id, k.id))!;
    const patched = await h.api.call('PATCH', `/v1/keys/${k.id}`, { key: admin.key, body: { scopes: ['jobs'] } });
    t.equal(patched.status, 200);
    const { row } = await h.api.deps.repos.keys.rotate(stale, 1);
    t.same(row.scopes, ['jobs'], 'the removed scope does not come back');
  });

  t.test('grace_hours out of range and unknown key', async (t) => {
    const k = (await create({ name: 'r2', kind: 'secret' })).body;
    const res = await h.api.call('POST', `/v1/keys/${k.id}/rotate`, { key: admin.key, body: { grace_hours: 721 } });
    t.equal(res.status, 400);
    t.match(res.body.error.details, [{ field: 'grace_hours', code: 'too_large' }]);
    const neg = await h.api.call('POST', `/v1/keys/${k.id}/rotate`, { key: admin.key, body: { grace_hours: -1 } });
    t.equal(neg.status, 400);
    t.notOk((await db('api_keys').where({ id: k.id }).first()).replaced_by, 'nothing rotated');
    const unknown = await h.api.call('POST', '/v1/keys/key_doesnotexist00/rotate', { key: admin.key, body: {} });
    t.equal(unknown.status, 404);
  });
});

t.test('a key with expires_at stops working after it', async (t) => {
  const k = (await create({ name: 'short', kind: 'secret', expires_at: new Date(Date.now() + 2000).toISOString() })).body;
  t.equal((await useKey(k.key)).status, 200);
  await sleep(2500);
  const res = await useKey(k.key);
  t.equal(res.status, 401);
  t.equal(res.body.error.code, 'key_expired');
});

t.test('credentials that are missing, unknown or malformed', async (t) => {
  const missing = await h.api.call('GET', '/v1/keys');
  t.equal(missing.status, 401);
  t.equal(missing.body.error.code, 'key_missing');
  const unknown = await h.api.call('GET', '/v1/keys', { key: `sk_live_${'x'.repeat(32)}` });
  t.equal(unknown.status, 401);
  t.equal(unknown.body.error.code, 'key_invalid');
  for (const authorization of ['Basic abc', `Bearer`, `Token ${admin.key}`, `Bearer ${admin.key} extra`]) {
    const res = await h.api.call('GET', '/v1/keys', { headers: { authorization } });
    t.equal(res.status, 401, authorization);
    t.equal(res.body.error.code, 'key_invalid');
  }
  const viaHeader = await h.api.call('GET', '/v1/keys', { headers: { 'x-api-key': admin.key } });
  t.equal(viaHeader.status, 200, 'X-API-Key also works');
});

t.test('last_used_at is recorded', async (t) => {
  const k = (await create({ name: 'lu', kind: 'secret' })).body;
  t.equal(k.last_used_at, null);
  const before = Date.now();
  t.equal((await useKey(k.key)).status, 200);
  await h.api.deps.auth.flush();
  const row = await db('api_keys').where({ id: k.id }).first();
  t.ok(row.last_used_at, 'set');
  t.ok(row.last_used_at.getTime() >= before - 1000);
});

t.test('key management needs admin on a secret key or a session', async (t) => {
  const plain = (await create({ name: 'no admin', kind: 'secret' })).body;
  const res = await h.api.call('GET', '/v1/keys', { key: plain.key });
  t.equal(res.status, 403);
  t.equal(res.body.error.code, 'scope_missing');
  const post = await create({ name: 'escalate', kind: 'secret', scopes: ['admin'] }, plain.key);
  t.equal(post.status, 403);

  const pub = (await create({ name: 'web', kind: 'public', allowed_origins: ['https://shop.example'] })).body;
  const viaPublic = await h.api.call('GET', '/v1/keys', { key: pub.key, headers: { origin: 'https://shop.example' } });
  t.equal(viaPublic.status, 403);
  t.equal(viaPublic.body.error.code, 'key_kind_not_allowed');
});

t.test('dashboard sessions', async (t) => {
  const made = await h.api.call('POST', '/v1/sessions', { key: admin.key, body: {} });
  t.equal(made.status, 201);
  t.match(made.body.token, /^ds_/);
  const token = made.body.token;
  const row = await db('dashboard_sessions').where({ id: made.body.id }).first();
  t.equal(row.hash, hashKey(token), 'only the hash is stored');

  const list = await h.api.call('GET', '/v1/keys', { key: token });
  t.equal(list.status, 200, 'a session manages keys');
  const created = await create({ name: 'from dashboard', kind: 'secret' }, token);
  t.equal(created.status, 201);

  const revoke = await h.api.call('DELETE', `/v1/sessions/${made.body.id}`, { key: admin.key });
  t.equal(revoke.status, 200);
  const revoked = await h.api.call('GET', '/v1/keys', { key: token });
  t.equal(revoked.status, 401);
  t.equal(revoked.body.error.code, 'session_revoked');

  const other = (await h.api.call('POST', '/v1/sessions', { key: admin.key, body: {} })).body;
  t.equal((await h.api.call('GET', '/v1/keys', { key: other.token })).status, 200);
  await db('dashboard_sessions')
    .where({ id: other.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  await h.api.deps.auth.invalidate(hashKey(other.token));
  const expired = await h.api.call('GET', '/v1/keys', { key: other.token });
  t.equal(expired.status, 401);
  t.equal(expired.body.error.code, 'session_expired');

  const plain = (await create({ name: 'no admin 2', kind: 'secret' })).body;
  const denied = await h.api.call('POST', '/v1/sessions', { key: plain.key, body: {} });
  t.equal(denied.status, 403, 'a session needs admin');
});
