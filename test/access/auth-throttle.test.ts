import t from 'tap';
import { deferred } from '../helpers/wait.js';
import { Redis } from 'ioredis';
import { setup } from '../helpers/harness.js';
import { Authenticator, AuthThrottle, RateLimiter, mintKey } from '../../shared/access/index.js';
import { createLogger } from '../../shared/platform/logger.js';

// Issue 12, item 11: 1,000 wrong keys in 0.9 s, each a database lookup, were never throttled.
// Failures are counted per client address and per key prefix (minute windows, no Redis round
// trip per request); past the limit an unknown credential gets 429 without a lookup.
const h = await setup({ TRUSTED_PROXY_HOPS: '1', AUTH_FAILURES_PER_MINUTE: '30', AUTH_FAILURES_PER_PREFIX_PER_MINUTE: '60' });
t.teardown(() => h.close());
const admin = await h.tenant();

/** A secret key of the admin store made straight in the database (as POST /v1/keys would make it). */
const insertKey = (id: string, minted: ReturnType<typeof mintKey>) =>
  h.api.deps.db('api_keys').insert({
    id,
    tenant_id: admin.id,
    name: id,
    kind: 'secret',
    hash: minted.hash,
    prefix: minted.prefix,
    last4: minted.last4,
    scopes: ['jobs'],
    allowed_origins: [],
  });
const wrongKey = (prefix = 'sk_live_') => prefix + mintKey('secret').key.slice(prefix.length);
const from = (address: string, key: string) => h.api.call('GET', '/v1/jobs', { key, headers: { 'x-forwarded-for': address } });
/** Counts are per clock minute: start a counting test with enough of the minute left that it cannot roll over midway. */
const freshMinute = async () => {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 50));
};
t.equal((await from('192.0.2.1', admin.key)).status, 200, 'the admin key is known valid on this process');

t.test('one address: 30 failures a minute, then 429 auth_throttled with Retry-After', async (t) => {
  await freshMinute();
  const statuses: string[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await from('203.0.113.7', wrongKey());
    statuses.push(`${res.status} ${res.body.error.code}`);
    if (res.status === 429) t.ok(Number(res.headers.get('retry-after')) >= 1 && Number(res.headers.get('retry-after')) <= 60);
  }
  t.same(statuses.slice(0, 30), Array(30).fill('401 key_invalid'));
  t.same(statuses.slice(30), Array(70).fill('429 auth_throttled'));
  t.equal((await from('203.0.113.7', admin.key)).status, 200, 'a key already known valid still works from that address');
  t.equal((await from('203.0.113.8', wrongKey())).body.error.code, 'key_invalid', 'another address is not throttled');
});

t.test('one prefix from many addresses: throttled at 60 failures; the owner of a known key is unaffected', async (t) => {
  await freshMinute();
  const victim = admin.key.slice(0, 12);
  const codes = new Map<string, number>();
  for (let i = 0; i < 80; i++) {
    const res = await from(`198.51.100.${i}`, wrongKey(victim));
    codes.set(res.body.error.code, (codes.get(res.body.error.code) ?? 0) + 1);
  }
  t.same(Object.fromEntries(codes), { key_invalid: 60, auth_throttled: 20 });
  t.equal((await from('198.51.100.200', admin.key)).status, 200, 'the real key with that prefix keeps working');
  t.equal((await from('198.51.100.201', wrongKey())).body.error.code, 'key_invalid', 'other prefixes are not throttled');
});

t.test('a second API process learns the counts through Redis', async (t) => {
  await freshMinute();
  for (let i = 0; i < 30; i++) await from('203.0.113.9', wrongKey());
  const other = await h.startApi();
  await new Promise((r) => setTimeout(r, 300));
  // Process 2 learns an address's total when it counts a failure of its own for it (at most one lookup), then refuses.
  const first = await other.call('GET', '/v1/jobs', { key: wrongKey(), headers: { 'x-forwarded-for': '203.0.113.9' } });
  t.equal(first.body.error.code, 'key_invalid');
  await new Promise((r) => setTimeout(r, 300));
  const after = await other.call('GET', '/v1/jobs', { key: wrongKey(), headers: { 'x-forwarded-for': '203.0.113.9' } });
  t.equal(after.body.error.code, 'auth_throttled', 'the address that failed 30 times on process 1 is throttled on process 2');
});

t.test('unknown keys: remembered briefly, one lookup for repeats; a key created later works at once', async (t) => {
  const deps = h.api.deps;
  let lookups = 0;
  const lookup = {
    keyByHash: (hash: string) => (lookups++, deps.repos.keys.findByHash(hash)),
    sessionByHash: (hash: string) => (lookups++, deps.repos.sessions.findByHash(hash)),
    touchLastUsed: deps.repos.keys.touchLastUsed,
  };
  const channel = `${h.config.queuePrefix}:auth-invalidate`;
  const logger = createLogger('silent');
  const counter = new RateLimiter(deps.redis, `${h.config.queuePrefix}:unit`, logger, 100, 60_000, 'authfail');
  const one = new Authenticator(lookup, deps.redis, channel, 30_000, logger, new AuthThrottle(counter, { perAddress: 1000, perPrefix: 1000 }));
  const two = new Authenticator(lookup, deps.redis, channel, 30_000, logger, null);
  const subs = [new Redis(h.config.redisUrl), new Redis(h.config.redisUrl)];
  t.teardown(() => subs.forEach((s) => s.disconnect()));
  await one.start(subs[0]);
  await two.start(subs[1]);

  const minted = mintKey('secret');
  for (let i = 0; i < 10; i++) await t.rejects(one.authenticate(minted.key, '10.0.0.1'), { code: 'key_invalid' });
  t.equal(lookups, 1, 'ten tries of one unknown key: one database lookup');
  await t.rejects(two.authenticate(minted.key, '10.0.0.1'), { code: 'key_invalid' });

  // The key now exists (as POST /v1/keys would make it), and its creator tells every process.
  await insertKey('key_later', minted);
  await one.invalidate(minted.hash);
  await new Promise((r) => setTimeout(r, 100));
  t.equal((await one.authenticate(minted.key, '10.0.0.1')).id, 'key_later', 'this process forgot the unknown');
  t.equal((await two.authenticate(minted.key, '10.0.0.1')).id, 'key_later', 'so did the other, through the invalidation message');
  await one.stop();
  await two.stop();
});

t.test('by default X-Forwarded-For is not trusted: rotating it does not reset the count', async (t) => {
  const direct = await setup({ AUTH_FAILURES_PER_MINUTE: '5' });
  t.teardown(() => direct.close());
  await freshMinute();
  const codes: string[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await direct.api.call('GET', '/v1/jobs', { key: wrongKey(), headers: { 'x-forwarded-for': `192.0.2.${i}` } });
    codes.push(res.body.error.code);
  }
  t.same(codes, [...Array(5).fill('key_invalid'), ...Array(3).fill('auth_throttled')]);
});

t.test('last-used times: a flush while an earlier one is writing, and stop, resolve after that write is stored', async (t) => {
  const deps = h.api.deps;
  const minted = mintKey('secret');
  await insertKey('key_last_used', minted);
  // The first write waits on a gate, as the timer's would while Postgres is busy.
  const gate = deferred();
  let writes = 0;
  const lookup = {
    keyByHash: (hash: string) => deps.repos.keys.findByHash(hash),
    sessionByHash: (hash: string) => deps.repos.sessions.findByHash(hash),
    touchLastUsed: async (batch: Map<string, number>) => {
      if (writes++ === 0) await gate.promise;
      await deps.repos.keys.touchLastUsed(batch);
    },
  };
  const auth = new Authenticator(lookup, deps.redis, `${h.config.queuePrefix}:auth-last-used`, 30_000, createLogger('silent'), null);
  await auth.authenticate(minted.key, '10.0.0.2');
  const first = auth.flush();
  let stopped = false;
  const stop = auth.stop().then(() => (stopped = true));
  await new Promise((r) => setTimeout(r, 50));
  t.equal(stopped, false, 'stop waits for the write in flight');
  gate.resolve();
  await stop;
  const row = await deps.db('api_keys').where({ id: 'key_last_used' }).first('last_used_at');
  t.ok(row.last_used_at, 'stored when stop resolved');
  await first;
  t.equal(writes, 1, 'nothing left to write at stop: one statement');
});
