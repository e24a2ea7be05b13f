import t from 'tap';
import { setup, type Api, type Reply } from '../helpers/harness.js';

// Default AUTH_CACHE_TTL_MS (30 s): only the invalidation message can make instance 2 notice.
const h = await setup();
t.teardown(() => h.close());
const api1 = h.api;
const api2 = await h.startApi();
const a = await h.tenant('Store A');
const b = await h.tenant('Store B');

const createKey = async (body: Record<string, unknown>) => {
  const res = await api1.call('POST', '/v1/keys', { key: a.key, body });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; key: string };
};

/** Calls `api` until `done(reply)` or the deadline; returns the last reply and whether it was reached. */
async function pollUntil(api: Api, key: string, done: (r: Reply) => boolean, deadlineMs: number) {
  const end = Date.now() + deadlineMs;
  let last: Reply;
  do {
    last = await api.call('GET', '/v1/jobs', { key });
    if (done(last)) return { reached: true, last };
    await new Promise((r) => setTimeout(r, 20));
  } while (Date.now() < end);
  return { reached: false, last };
}

t.test('a revocation on instance 1 is seen by instance 2 within 1 s', async (t) => {
  const k = await createKey({ name: 'two instances', kind: 'secret' });
  t.equal((await api1.call('GET', '/v1/jobs', { key: k.key })).status, 200);
  t.equal((await api2.call('GET', '/v1/jobs', { key: k.key })).status, 200, 'instance 2 cached it');
  t.equal((await api1.call('DELETE', `/v1/keys/${k.id}`, { key: a.key })).status, 200);
  const { reached, last } = await pollUntil(api2, k.key, (r) => r.status === 401, 1000);
  t.ok(reached, 'instance 2 refused the key within 1 s');
  t.equal(last.body.error.code, 'key_revoked');
});

t.test('a scope removed on instance 1 is enforced by instance 2 within 1 s', async (t) => {
  const k = await createKey({ name: 'scoped', kind: 'secret', scopes: ['jobs', 'catalog:read'] });
  t.equal((await api1.call('GET', '/v1/jobs', { key: k.key })).status, 200);
  t.equal((await api2.call('GET', '/v1/jobs', { key: k.key })).status, 200);
  const patched = await api1.call('PATCH', `/v1/keys/${k.id}`, { key: a.key, body: { scopes: ['catalog:read'] } });
  t.equal(patched.status, 200);
  const { reached, last } = await pollUntil(api2, k.key, (r) => r.status === 403, 1000);
  t.ok(reached, 'instance 2 applied the new scopes within 1 s');
  t.equal(last.body.error.code, 'scope_missing');
});

t.test("tenant B's admin key cannot touch tenant A's keys", async (t) => {
  const k = await createKey({ name: 'A only', kind: 'secret' });
  const list = await api1.call('GET', '/v1/keys', { key: b.key });
  t.equal(list.status, 200);
  t.notOk(
    list.body.some((x: { id: string }) => x.id === k.id || x.id === a.keyId),
    "A's keys are not listed for B",
  );

  const attempts = [
    api1.call('PATCH', `/v1/keys/${k.id}`, { key: b.key, body: { name: 'hijacked', scopes: ['admin'] } }),
    api1.call('DELETE', `/v1/keys/${k.id}`, { key: b.key }),
    api1.call('POST', `/v1/keys/${k.id}/rotate`, { key: b.key, body: { grace_hours: 0 } }),
    api1.call('DELETE', `/v1/keys/${a.keyId}`, { key: b.key }),
  ];
  for (const res of await Promise.all(attempts)) {
    t.equal(res.status, 404);
    t.equal(res.body.error.code, 'not_found');
  }
  const row = await api1.deps.db('api_keys').where({ id: k.id }).first();
  t.equal(row.name, 'A only');
  t.equal(row.revoked_at, null);
  t.equal(row.replaced_by, null);
  t.equal(row.expires_at, null);
  t.equal((await api1.call('GET', '/v1/jobs', { key: k.key })).status, 200, "A's key still works");
  t.equal((await api2.call('GET', '/v1/keys', { key: a.key })).status, 200, "A's admin key still works");
});

t.test("tenant B cannot read or cancel tenant A's jobs", async (t) => {
  const { job } = await api1.deps.repos.jobs.create(a.id, 'reindex', { reason: 'test' });
  const read = await api1.call('GET', `/v1/jobs/${job.id}`, { key: b.key });
  t.equal(read.status, 404);
  t.equal(read.body.error.code, 'not_found');
  const cancel = await api1.call('POST', `/v1/jobs/${job.id}/cancel`, { key: b.key });
  t.equal(cancel.status, 404);
  t.equal(cancel.body.error.code, 'not_found');
  const listB = await api1.call('GET', '/v1/jobs', { key: b.key });
  t.same(listB.body.data, [], "A's job is not in B's list");

  const row = await api1.deps.repos.jobs.get(job.id);
  t.equal(row?.status, 'queued', 'still queued');
  t.equal(row?.cancel_requested, false);
  const own = await api1.call('GET', `/v1/jobs/${job.id}`, { key: a.key });
  t.equal(own.status, 200, 'A reads its own job');
  t.equal(own.body.id, job.id);
  const ownCancel = await api1.call('POST', `/v1/jobs/${job.id}/cancel`, { key: a.key });
  t.equal(ownCancel.status, 200);
  t.equal(ownCancel.body.status, 'canceled');
});
