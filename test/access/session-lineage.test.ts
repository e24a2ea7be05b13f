import t from 'tap';
import { setup } from '../helpers/harness.js';

// Issue 12, item 9: a session minted by an admin key kept working after the key was revoked,
// and a 12 h session could mint a 720 h one. A session records who minted it; revoking (or
// rotating) that credential ends it, and no session outlives its parent.
const h = await setup();
t.teardown(() => h.close());
const root = await h.tenant();
const second = await h.startApi();
const HOUR = 3600_000;

const adminKey = async (extra: Record<string, unknown> = {}) => {
  const res = await h.api.call('POST', '/v1/keys', { key: root.key, body: { name: 'admin', kind: 'secret', scopes: ['admin', 'jobs'], ...extra } });
  t.equal(res.status, 201);
  return res.body as { id: string; key: string };
};
const mint = async (key: string, body: Record<string, unknown> = {}) => {
  const res = await h.api.call('POST', '/v1/sessions', { key, body });
  return res.body as { id: string; token: string; expires_at: string };
};
/** The status a credential gets on each API process (both cache credentials). */
const statusEverywhere = async (token: string) =>
  Promise.all(
    [h.api, second].map(async (api) => {
      const res = await api.call('GET', '/v1/auth/whoami', { key: token });
      return res.status === 200 ? 200 : `${res.status} ${res.body.error.code}`;
    }),
  );

t.test('revoking a key ends the sessions it minted, and the sessions they minted, on every process', async (t) => {
  const key = await adminKey();
  const child = await mint(key.key);
  const grandchild = await mint(child.token);
  const unrelated = await mint(root.key);
  for (const s of [child, grandchild, unrelated]) t.same(await statusEverywhere(s.token), [200, 200], 'works (and is cached) before');

  t.equal((await h.api.call('DELETE', `/v1/keys/${key.id}`, { key: root.key })).status, 200);
  t.same(await statusEverywhere(child.token), ['401 session_revoked', '401 session_revoked']);
  t.same(await statusEverywhere(grandchild.token), ['401 session_revoked', '401 session_revoked']);
  t.same(await statusEverywhere(unrelated.token), [200, 200], 'a session another key minted keeps working');
});

t.test('revoking a session ends the sessions it minted', async (t) => {
  const parent = await mint(root.key);
  const child = await mint(parent.token);
  t.equal((await h.api.call('DELETE', `/v1/sessions/${parent.id}`, { key: root.key })).status, 200);
  t.same(await statusEverywhere(child.token), ['401 session_revoked', '401 session_revoked']);
});

t.test('a session never outlives the credential that minted it', async (t) => {
  const twelve = await mint(root.key, { ttl_hours: 12 });
  const asked720 = await mint(twelve.token, { ttl_hours: 720 });
  t.equal(asked720.expires_at, twelve.expires_at, 'a 12 h session asking for 720 h gets its own end');
  t.ok(Date.parse(asked720.expires_at) - Date.now() <= 12 * HOUR);

  const expiring = await adminKey({ expires_at: new Date(Date.now() + 2 * HOUR).toISOString() });
  const fromKey = await mint(expiring.key, { ttl_hours: 12 });
  t.ok(Date.parse(fromKey.expires_at) <= Date.now() + 2 * HOUR, "capped at the key's expires_at");
  const shorter = await mint(root.key, { ttl_hours: 1 });
  t.ok(Date.parse(shorter.expires_at) <= Date.now() + HOUR, "a shorter ttl than the parent's is kept");
});

t.test('rotating a key cuts its sessions to the end of its grace', async (t) => {
  const key = await adminKey();
  const session = await mint(key.key, { ttl_hours: 24 });
  const child = await mint(session.token, { ttl_hours: 24 });
  const rotated = await h.api.call('POST', `/v1/keys/${key.id}/rotate`, { key: root.key, body: { grace_hours: 1 } });
  t.equal(rotated.status, 200);
  for (const token of [session.token, child.token]) {
    for (const api of [h.api, second]) {
      const who = await api.call('GET', '/v1/auth/whoami', { key: token });
      t.equal(who.status, 200, 'still works during the grace');
      t.ok(Date.parse(who.body.expires_at) <= Date.now() + HOUR, `expires with the old key (${who.body.expires_at})`);
    }
  }
});

t.test('sessions minted while their key is being revoked are revoked too (no race)', async (t) => {
  const key = await adminKey();
  const mints = Array.from({ length: 20 }, () => h.api.call('POST', '/v1/sessions', { key: key.key, body: {} }));
  const revoke = h.api.call('DELETE', `/v1/keys/${key.id}`, { key: root.key });
  const results = await Promise.all(mints);
  t.equal((await revoke).status, 200);
  const minted = results.filter((r) => r.status === 201).map((r) => r.body.token as string);
  for (const r of results) t.ok(r.status === 201 || r.status === 401, `mint answered ${r.status}`);
  for (const token of minted) t.same(await statusEverywhere(token), ['401 session_revoked', '401 session_revoked']);
  const rows = await h.api.deps.db('dashboard_sessions').where({ parent_key_id: key.id });
  t.equal(rows.length, minted.length);
  t.ok(
    rows.every((r: { revoked_at: Date | null }) => r.revoked_at !== null),
    'every stored session of the key is revoked',
  );
});
