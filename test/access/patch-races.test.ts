import t from 'tap';
import { setup } from '../helpers/harness.js';
import { waitFor } from '../helpers/wait.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';

// A PATCH reads the key, then updates it: a rotation or revocation that commits in between must
// not leave the patch answered 200 but applied to a key that no longer counts (or not at all).
const h = await setup();
t.teardown(() => h.close());
const admin = await h.tenant();
const db = h.api.deps.db;
const create = async (name: string) =>
  (await h.api.call('POST', '/v1/keys', { key: admin.key, body: { name, kind: 'secret', scopes: ['jobs', 'catalog:write'] } })).body;
const waiters = (n: number) => waitFor(async () => (await lockWaiters(db)) >= n, 10_000, `${n} lock waiters`);

t.test('a scope removed while the key is being rotated: 409, never a 200 the successor ignores', async (t) => {
  const k = await create('race-rotate');
  // The rotation is held after it locked the key, at the insert of its successor (same name).
  const hold = await holdWrites(db, { name: 'hold_successor', table: 'api_keys', on: 'INSERT', when: "NEW.name = 'race-rotate'" });
  t.teardown(() => hold.remove());
  const rotating = h.api.call('POST', `/v1/keys/${k.id}/rotate`, { key: admin.key, body: { grace_hours: 1 } });
  await waiters(1);
  // The patch reads the key as live, then waits for the rotation's lock on it.
  const patching = h.api.call('PATCH', `/v1/keys/${k.id}`, { key: admin.key, body: { scopes: ['jobs'] } });
  await waiters(2);
  await hold.release();
  const [rotated, patched] = await Promise.all([rotating, patching]);
  t.equal(rotated.status, 200);
  const successor = await db('api_keys').where({ id: rotated.body.id }).first();
  t.same(successor.scopes, ['jobs', 'catalog:write'], 'the successor holds the scopes it was rotated with');
  t.equal(patched.status, 409, 'the patch is refused: the key it named was rotated');
  t.equal(patched.body.error?.code, 'key_already_rotated');
});

t.test('a patch while the key is being revoked: 409 key_revoked, never a 200 that changed nothing', async (t) => {
  const k = await create('race-revoke');
  // The revocation is held with the key's row locked (a BEFORE UPDATE trigger runs on the locked row).
  const hold = await holdWrites(db, { name: 'hold_revoke', table: 'api_keys', on: 'UPDATE', when: `NEW.revoked_at IS NOT NULL AND OLD.id = '${k.id}'` });
  t.teardown(() => hold.remove());
  const revoking = h.api.call('DELETE', `/v1/keys/${k.id}`, { key: admin.key });
  await waiters(1);
  const patching = h.api.call('PATCH', `/v1/keys/${k.id}`, { key: admin.key, body: { name: 'renamed' } });
  await waiters(2);
  await hold.release();
  const [revoked, patched] = await Promise.all([revoking, patching]);
  t.equal(revoked.status, 200);
  t.equal((await db('api_keys').where({ id: k.id }).first()).name, 'race-revoke', 'the revoked key was not renamed');
  t.equal(patched.status, 409, 'the patch says it was not applied');
  t.equal(patched.body.error?.code, 'key_revoked');
});
