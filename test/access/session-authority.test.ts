import t from 'tap';
import { setup } from '../helpers/harness.js';
import { SCOPES } from '../../shared/access/scopes.js';

// A dashboard session held every scope whatever its key held, and kept them after the key was
// demoted: a key with `admin` and `jobs` minted a session that could read billing and usage, and
// still manage keys after `admin` was taken from the key. A session now holds its root key's
// scopes as they are now, on every API process (the key's scope change drops its sessions from
// every auth cache).
const h = await setup();
t.teardown(() => h.close());
const root = await h.tenant();
const second = await h.startApi();
const apis = [h.api, second];

const adminKey = async (scopes: string[]) => {
  const res = await h.api.call('POST', '/v1/keys', { key: root.key, body: { name: 'dashboard', kind: 'secret', scopes } });
  t.equal(res.status, 201);
  return res.body as { id: string; key: string };
};
const mint = async (key: string) => {
  const res = await h.api.call('POST', '/v1/sessions', { key, body: {} });
  t.equal(res.status, 201, `mint answered ${res.status}`);
  return res.body as { id: string; token: string };
};
const patchScopes = async (id: string, scopes: string[]) => {
  const res = await h.api.call('PATCH', `/v1/keys/${id}`, { key: root.key, body: { scopes } });
  t.equal(res.status, 200);
};
/** The answer of `path` for `token` on each API process: 200 or "status code". */
const everywhere = (method: string, path: string, token: string) =>
  Promise.all(
    apis.map(async (api) => {
      const res = await api.call(method, path, { key: token, ...(method === 'POST' ? { body: {} } : {}) });
      return res.status < 300 ? res.status : `${res.status} ${res.body.error.code}`;
    }),
  );
const scopesEverywhere = (token: string) =>
  Promise.all(apis.map(async (api) => ((await api.call('GET', '/v1/auth/whoami', { key: token })).body.scopes as string[]).sort()));

t.test("a session holds its key's scopes, not every scope", async (t) => {
  const key = await adminKey(['admin', 'jobs']);
  const session = await mint(key.key);
  const child = await mint(session.token);
  for (const s of [session, child]) {
    t.same(await scopesEverywhere(s.token), [
      ['admin', 'jobs'],
      ['admin', 'jobs'],
    ]);
    t.same(await everywhere('GET', '/v1/jobs', s.token), [200, 200]);
    t.same(await everywhere('GET', '/v1/usage', s.token), ['403 scope_missing', '403 scope_missing'], 'usage is not its key’s');
    t.same(await everywhere('GET', '/v1/billing/subscription', s.token), ['403 scope_missing', '403 scope_missing']);
  }
});

t.test('demoting the key demotes its sessions (and theirs) at once on every process; restoring restores', async (t) => {
  const key = await adminKey(['admin', 'jobs', 'usage']);
  const session = await mint(key.key);
  const child = await mint(session.token);
  for (const s of [session, child]) t.same(await everywhere('GET', '/v1/usage', s.token), [200, 200], 'works (and is cached) before');

  await patchScopes(key.id, ['admin', 'jobs']);
  for (const s of [session, child]) {
    t.same(await everywhere('GET', '/v1/usage', s.token), ['403 scope_missing', '403 scope_missing']);
    t.same(await everywhere('GET', '/v1/jobs', s.token), [200, 200], 'what the key still holds still works');
  }

  await patchScopes(key.id, ['jobs']);
  for (const s of [session, child]) {
    t.same(await everywhere('GET', '/v1/keys', s.token), ['403 scope_missing', '403 scope_missing'], 'no admin: no key management');
    t.same(await everywhere('POST', '/v1/sessions', s.token), ['403 scope_missing', '403 scope_missing'], 'nor minting sessions');
  }
  t.equal((await h.api.call('POST', '/v1/keys', { key: session.token, body: { name: 'escalate', kind: 'secret' } })).status, 403);

  await patchScopes(key.id, ['admin', 'jobs', 'usage']);
  for (const s of [session, child]) t.same(await everywhere('GET', '/v1/usage', s.token), [200, 200], 'never more than the key, never less');
});

t.test('a session whose key is revoked is refused even where the revocation did not reach its row', async (t) => {
  const key = await adminKey(['admin', 'jobs']);
  const session = await mint(key.key);
  // Revoked behind the API's back (only the key's row): the session's own row still says live.
  await h.api.deps.db('api_keys').where({ id: key.id }).update({ revoked_at: h.api.deps.db.fn.now() });
  const fresh = await h.startApi();
  const res = await fresh.call('GET', '/v1/jobs', { key: session.token });
  t.equal(res.status, 401);
  t.equal(res.body.error?.code, 'session_revoked');
});

t.test('revoking the key through the API ends its sessions on every process', async (t) => {
  const key = await adminKey(['admin', 'jobs']);
  const session = await mint(key.key);
  t.same(await everywhere('GET', '/v1/jobs', session.token), [200, 200]);
  t.equal((await h.api.call('DELETE', `/v1/keys/${key.id}`, { key: root.key })).status, 200);
  t.same(await everywhere('GET', '/v1/jobs', session.token), ['401 session_revoked', '401 session_revoked']);
});

t.test('a session the CLI minted (no key) holds every scope', async (t) => {
  const { token } = await h.api.deps.repos.sessions.create(root.id, null, 'cli', 1);
  t.same(await scopesEverywhere(token), [[...SCOPES].sort(), [...SCOPES].sort()]);
});
