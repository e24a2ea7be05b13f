import t from 'tap';
import { setup } from '../helpers/harness.js';
import { rollupUsageStage } from '../../pipelines/usage/rollup-usage.stage.js';
import type { Deps } from '../../shared/deps.js';

const h = await setup({ RATE_LIMIT_SECRET_PER_S: '1000000', SEARCH_CACHE_TTL_MS: '60000', BILLING_DEFAULT_PLAN: 'free' });
t.teardown(() => h.close());
const deps = h.api.deps;
const tenants = await Promise.all([1, 2, 3, 4].map((i) => h.tenant(`Store ${i}`)));
const notified: Array<{ tenantId: string; metric: string; notice: string }> = [];
deps.billingNotifications.on((n) => {
  if (n.kind === 'usage.threshold') notified.push({ tenantId: n.tenantId, metric: n.metric, notice: n.notice });
});

/** The roll-up stage as the worker runs it (its run function on these deps). */
const rollup = () => rollupUsageStage.run({ data: {}, deps } as unknown as Parameters<typeof rollupUsageStage.run>[0]);
const usage = async (key: string) => (await h.api.call('GET', '/v1/usage', { key })).body;
const used = (u: { metrics: Array<{ metric: string; used: number }> }, metric = 'search') => u.metrics.find((m) => m.metric === metric)!.used;

/** Runs `n` requests with `parallel` in flight; returns the statuses. */
async function run(n: number, parallel: number, request: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) {
        const i = next++;
        statuses[i] = await request(i);
      }
    }),
  );
  return statuses;
}

t.test('10,000 concurrent searches across 4 tenants are counted exactly; page 2 and suggest are not billed', async (t) => {
  const perTenant = [4000, 3000, 2000, 1000];
  const order = perTenant.flatMap((n, ti) => Array.from({ length: n }, () => ti));
  // Interleave tenants so every flush carries all four.
  order.sort((a, b) => ((a * 7919) % 13) - ((b * 7919) % 13));
  const billed = await run(order.length, 64, async (i) => {
    const tn = tenants[order[i]];
    return await fetch(`${h.api.url}/v1/search?q=item${i % 50}`, { headers: { authorization: `Bearer ${tn.key}` } }).then(
      async (r) => (await r.arrayBuffer(), r.status),
    );
  });
  t.equal(billed.filter((s) => s === 200).length, 10_000, 'all answered');
  const unbilled = await run(400, 32, async (i) => {
    const tn = tenants[Math.floor(i / 2) % 4];
    const path = i % 2 ? `/v1/search?q=item&page=2` : `/v1/suggest?q=ite`;
    return await fetch(`${h.api.url}${path}`, { headers: { authorization: `Bearer ${tn.key}` } }).then(async (r) => (await r.arrayBuffer(), r.status));
  });
  t.equal(unbilled.filter((s) => s === 200).length, 400);
  await deps.usage.flush();
  await rollup();
  await rollup();
  for (const [i, tn] of tenants.entries()) {
    const u = await usage(tn.key);
    t.equal(used(u), perTenant[i], `tenant ${i + 1}: ${perTenant[i]} billed`);
    const today = u.daily.at(-1);
    t.equal(today.searches, perTenant[i]);
    t.equal(today.suggests_not_billed, 50, 'suggests counted apart, never billed');
  }
});

t.test('80 % and 100 % notices fire exactly once per metric per period', async (t) => {
  const tn = tenants[3];
  // Earlier in the month this store had used 7,000 of its 10,000 free searches (+1,000 above).
  const today = new Date().toISOString().slice(0, 10);
  await deps.db('usage_daily').where({ tenant_id: tn.id, day: today, metric: 'search' }).increment('base', 7_000);
  const search = () =>
    fetch(`${h.api.url}/v1/search?q=x`, { headers: { authorization: `Bearer ${tn.key}` } }).then(async (r) => (await r.arrayBuffer(), r.status));
  await rollup();
  t.same(notified, [{ tenantId: tn.id, metric: 'search', notice: '80_percent' }], '8,000 of 10,000: the 80 % notice');
  await rollup();
  await run(50, 8, search);
  await deps.usage.flush();
  await rollup();
  t.equal(notified.length, 1, 'not again within the period');
  t.same((await usage(tn.key)).notices, ['80_percent']);
  await run(1950, 32, search);
  await deps.usage.flush();
  await rollup();
  await rollup();
  t.same(
    notified.map((n) => n.notice),
    ['80_percent', '100_percent'],
  );
  const u = await usage(tn.key);
  t.same(u.notices, ['80_percent', '100_percent']);
  t.equal(u.overage_estimate_cents, 0, 'the free plan accrues no overage');
  const others = notified.filter((n) => n.tenantId !== tn.id);
  t.equal(others.length, 0, 'other stores got no notice');
});

t.test('free plan over its limit: 402 search_quota_exceeded; suggest still served', async (t) => {
  const tn = tenants[0];
  // Make this process's view of the month cross the limit (as another API process's counts would).
  const month = new Date().toISOString().slice(0, 7);
  await deps.redis.incrby(`${h.config.queuePrefix}:usage:search:${tn.id}:${month}`, 6_000);
  await fetch(`${h.api.url}/v1/search?q=a`, { headers: { authorization: `Bearer ${tn.key}` } }).then((r) => r.arrayBuffer());
  await deps.usage.flush();
  const over = await h.api.call('GET', '/v1/search?q=a', { key: tn.key });
  t.equal(over.status, 402);
  t.equal(over.body.error.code, 'search_quota_exceeded');
  t.equal((await h.api.call('GET', '/v1/search?q=a&page=2', { key: tn.key })).status, 200, 'page 2 is not billed, so not limited');
  t.equal((await h.api.call('GET', '/v1/suggest?q=a', { key: tn.key })).status, 200, 'suggest is never limited');
});

t.test('paid plans keep serving past the limit and accrue overage', async (t) => {
  const tn = tenants[1];
  const now = new Date();
  await deps.db('billing_subscriptions').insert({
    tenant_id: tn.id,
    plan_code: 'starter',
    interval: 'month',
    status: 'active',
    provider: 'manual',
    current_period_start: now,
    current_period_end: new Date(now.getTime() + 30 * 86400_000),
  });
  await deps.notices.publish('subscription', tn.id);
  const today = now.toISOString().slice(0, 10);
  await deps
    .db('usage_daily')
    .where({ tenant_id: tn.id, day: today, metric: 'search' })
    .increment('base', 50_000 - 3_000 + 1_500);
  const month = now.toISOString().slice(0, 7);
  await deps.redis.incrby(`${h.config.queuePrefix}:usage:search:${tn.id}:${month}`, 60_000);
  await fetch(`${h.api.url}/v1/search?q=a`, { headers: { authorization: `Bearer ${tn.key}` } }).then((r) => r.arrayBuffer());
  await deps.usage.flush();
  const res = await h.api.call('GET', '/v1/search?q=a', { key: tn.key });
  t.equal(res.status, 200);
  t.match(res.headers.get('x-service-usage'), /limit=50000; billed=1/);
  await deps.usage.flush();
  await rollup();
  const u = await usage(tn.key);
  // 51,502 searches: 1,502 over -> 2 started thousands at 50 cents.
  t.equal(used(u), 51_502);
  t.equal(u.overage_estimate_cents, 100);
});

void (null as unknown as Deps);
