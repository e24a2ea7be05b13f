import t from 'tap';
import { setup } from '../helpers/harness.js';
import { waitFor } from '../helpers/wait.js';
import { canonicalJson, sha256 } from '../../shared/platform/ids.js';

// An Idempotency-Key claim is a lease: the key of a request whose process died (or whose release
// could not reach the database) frees itself within the lease instead of blocking retries.
const h = await setup();
t.teardown(() => h.close());
const repo = h.api.deps.repos.idempotency;
const LEASE_S = h.config.idempotencyLeaseS;

t.test('a claim whose owner died lapses within the lease; the retry then runs', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const body = { upsert: [{ id: 'lease-1', name: { en: 'Orphaned claim' }, price: 1, currency: 'USD' }] };
  const hash = sha256(`POST /v1/products/batch\n${canonicalJson(body)}`);
  // The claim a request takes before it runs; its process then dies without answering.
  t.same(await repo.claim(tenantId, 'orphaned-claim-1', hash), { owned: true, takeover: false }, 'claimed');
  const claimedAt = Date.now();
  const send = () => h.api.call('POST', '/v1/products/batch', { key, body, headers: { 'idempotency-key': 'orphaned-claim-1' } });
  const blocked = await send();
  t.equal(blocked.status, 409);
  t.equal(blocked.body.error.code, 'idempotency_in_progress');
  const res = await waitFor(
    async () => {
      const r = await send();
      return r.status === 200 ? r : null;
    },
    (LEASE_S + 5) * 1000,
    'the retry running',
    500,
  );
  t.comment(`the orphaned key was free again ${Date.now() - claimedAt} ms after its claim (lease ${LEASE_S} s)`);
  t.equal(res.body.upserted, 1);
  t.equal((await send()).headers.get('idempotent-replayed'), 'true', 'and its answer is kept for replays');
});

t.test('a running request renews its lease; a finished one keeps its answer for the retention period', async (t) => {
  const { id: tenantId } = await h.tenant();
  const expires = async () => (await h.api.deps.db('idempotency_keys').where({ tenant_id: tenantId, key: 'renewed-claim-1' }).first()).expires_at as Date;
  await repo.claim(tenantId, 'renewed-claim-1', 'hash-1');
  const first = await expires();
  t.ok(first.getTime() - Date.now() <= LEASE_S * 1000 + 1000, 'an in-flight claim expires within the lease');
  await new Promise((r) => setTimeout(r, 1100));
  t.equal(await repo.renew(tenantId, 'renewed-claim-1', 'hash-1'), true);
  t.ok((await expires()).getTime() > first.getTime(), 'renewed further out');
  t.equal(await repo.renew(tenantId, 'renewed-claim-1', 'another-hash'), false, 'only by the request that holds it');
  await repo.complete(tenantId, 'renewed-claim-1', 'hash-1', 200, { ok: true });
  t.ok((await expires()).getTime() - Date.now() > (h.config.idempotencyTtlHours - 1) * 3600_000, 'the kept answer lives IDEMPOTENCY_TTL_HOURS');
  t.equal(await repo.renew(tenantId, 'renewed-claim-1', 'hash-1'), false, 'a finished key is not in flight');
});
