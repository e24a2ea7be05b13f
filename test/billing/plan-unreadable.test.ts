import t from 'tap';
import { setup } from '../helpers/harness.js';
import { noticesDelivered } from '../helpers/workers.js';
import { subscribe } from '../helpers/subscribe.js';
import { searchesWithoutPlan } from '../../shared/platform/metrics.js';
import { storefrontKey } from '../storefront/storefront-key.js';
import { limitOf, MAX_STALE, planApp, RETRY } from './plan-app.js';

/**
 * No plan can be read (Postgres cut away from the plan reads, nothing usable held): searches fail
 * open (200, counted, `limit=unknown`, no quota check), with one warning per store per back-off
 * and a metric; starting a plan feature fails closed (503). Once the plan can be read, its limit
 * (and a hard limit's 402) is back. The search itself reads Postgres directly, not through the cut.
 */

const h = await setup({ BILLING_DEFAULT_PLAN: 'free' });
const app = await planApp(h);
t.teardown(async () => {
  await app.close();
  await h.close();
});
const deps = h.api.deps;
const { clock, proxy, warnings } = app;
const month = new Date().toISOString().slice(0, 7);

const searchAs = (key: string) => async () => {
  const res = await app.call('GET', '/v1/search?q=kettle', { key });
  return { status: res.status, limit: limitOf(res), code: res.body?.error?.code ?? null };
};
const without = async () => (await searchesWithoutPlan.get()).values[0]?.value ?? 0;
const warned = (tenantId: string) => warnings.filter((w) => w.tenantId === tenantId).length;
/** Drops this process's held plan of the store (its own notice back from Redis too). */
const forgetPlan = async (tenantId: string) => {
  await deps.notices.publish('subscription', tenantId);
  await noticesDelivered(deps);
};
/** This process's count of the store's searches this month past the free plan's 10,000 (as other processes' counts would make it). */
const overQuota = async (key: string, tenantId: string) => {
  await deps.redis.incrby(`${h.config.queuePrefix}:usage:search:${tenantId}:${month}`, 20_000);
  await app.call('GET', '/v1/search?q=warmup', { key });
  await deps.usage.flush();
};

t.test('no plan readable: searches answer 200 with limit=unknown, counted; the limit is back with Postgres', async (t) => {
  const store = await h.tenant('unreadable store');
  const search = searchAs(store.key);
  const counted = await without();
  proxy.cut();
  try {
    for (let i = 0; i < 3; i++) t.same(await search(), { status: 200, limit: 'unknown', code: null }, `search ${i + 1}`);
    const page2 = await app.call('GET', '/v1/search?q=kettle&page=2', { key: store.key });
    t.equal(page2.status, 200);
    t.match(page2.headers.get('x-service-usage'), /^searches=\d+; limit=unknown; billed=0; period=\d{4}-\d{2}$/);
    t.equal((await without()) - counted, 3, 'the metric counts the billed searches served without a plan');
    t.equal(warned(store.id), 1, 'one warning in the back-off');
    clock.at += RETRY;
    t.same(await search(), { status: 200, limit: 'unknown', code: null });
    t.equal(warned(store.id), 2, 'one more after the back-off');
  } finally {
    proxy.restore();
  }
  t.same(await search(), { status: 200, limit: '10000', code: null }, 'Postgres back: the next search has the plan');
  await deps.usage.flush();
  t.equal(deps.usage.used(store.id), 5, 'every billed search was counted, also those without a plan');
});

t.test('the storefront protocol fails open the same way', async (t) => {
  const store = await h.tenant('storefront store');
  const { pk } = await storefrontKey(h, store.id, store.key);
  const query = () =>
    app.call('POST', '/algolia/1/indexes/*/queries', {
      body: { requests: [{ indexName: 'products', params: 'query=kettle' }] },
      headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': store.id, origin: 'https://shop.example' },
    });
  proxy.cut();
  let res;
  try {
    res = await query();
  } finally {
    proxy.restore();
  }
  t.equal(res.status, 200, JSON.stringify(res.body).slice(0, 200));
  t.match(res.headers.get('x-service-usage'), /limit=unknown; billed=1/);
  t.equal(limitOf(await query()), '10000');
});

t.test('a hard-limit store over its quota: 402 while its plan is readable, let through while it is not', async (t) => {
  const store = await h.tenant('over quota store');
  const search = searchAs(store.key);
  await overQuota(store.key, store.id);
  t.same(await search(), { status: 402, limit: null, code: 'search_quota_exceeded' }, 'the plan readable: refused');
  await forgetPlan(store.id);
  proxy.cut();
  try {
    t.same(await search(), { status: 200, limit: 'unknown', code: null }, 'no plan readable: let through (README, Failure behaviour)');
  } finally {
    proxy.restore();
  }
  t.same(await search(), { status: 402, limit: null, code: 'search_quota_exceeded' }, 'readable again: refused again');
});

t.test('a held plan past the maximum staleness no longer answers: the search fails open until it is read', async (t) => {
  const store = await h.tenant('old plan store');
  const search = searchAs(store.key);
  await subscribe(deps, store.id, 'starter');
  await noticesDelivered(deps);
  const readAt = clock.at;
  t.same(await search(), { status: 200, limit: '50000', code: null });
  proxy.cut();
  try {
    clock.at = readAt + MAX_STALE - 1;
    t.same(await search(), { status: 200, limit: '50000', code: null }, 'just short of the maximum staleness: the held plan');
    clock.at = readAt + MAX_STALE;
    t.same(await search(), { status: 200, limit: 'unknown', code: null }, 'as old as the maximum: no plan');
  } finally {
    proxy.restore();
  }
  t.same(await search(), { status: 200, limit: '50000', code: null }, 'read again');
});

t.test('starting a plan feature fails closed: 503 while no plan is readable, the plan decides once it is', async (t) => {
  const store = await h.tenant('experimenting store');
  const draft = await app.call('POST', '/v1/experiments', {
    key: store.key,
    body: {
      name: 'two ways',
      variants: [
        { key: 'control', traffic_percent: 50 },
        { key: 'b', traffic_percent: 50, ranking: { in_stock_first: false } },
      ],
    },
  });
  t.equal(draft.status, 201);
  const start = () => app.call('POST', `/v1/experiments/${draft.body.id}/start`, { key: store.key });
  proxy.cut();
  let refused;
  try {
    refused = await start();
  } finally {
    proxy.restore();
  }
  t.equal(refused.status, 503, JSON.stringify(refused.body).slice(0, 200));
  t.equal(refused.body.error.code, 'dependency_unavailable');
  const free = await start();
  t.same([free.status, free.body.error?.code], [402, 'feature_not_in_plan'], 'the free plan has no experiments');
});
