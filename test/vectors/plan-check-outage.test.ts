import t from 'tap';
import { setupWithWorkers, noticesDelivered } from '../helpers/workers.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';
import { hideTable } from '../helpers/pg-fault.js';
import { hybridKettleStore } from './kettle-store.js';

/**
 * Hybrid search when the store's plan (whether it has `hybrid_search`) cannot be read: a Postgres
 * error on the subscription read. The search answers with the lexical results (never 500), the
 * trace says why, and that answer is not cached: once the plan can be read, the same query gets
 * the vector side's products.
 */

const fake = await startFakeOpenAi();
// Metering off: the route's own plan reads (quota, usage header) stay out of the way; only the hybrid step reads the plan.
// A long TTL: nothing in this file ages out of the cache; only what the fix changes keeps an answer out.
const { h } = await setupWithWorkers({
  EMBEDDER: 'openai',
  OPENAI_BASE_URL: fake.url,
  OPENAI_API_KEY: 'sk-test',
  USAGE_METERING: 'off',
  SEARCH_CACHE_TTL_MS: '3600000',
});
t.teardown(() => fake.close());
const deps = h.api.deps;
const { tenantId, key } = await hybridKettleStore(h, 'plan check outage');

const search = (q: string, debug = false) => h.api.call('POST', '/v1/search', { key, body: { q, debug } });
const hybridStep = (body: { debug?: { steps: Array<{ step: string }> } }) => body.debug?.steps.find((s) => s.step === 'hybrid');

/** The plan is read anew on the next search: this process's held entitlement is dropped by the notice. */
async function forgetPlan() {
  await deps.notices.publish('subscription', tenantId);
  await noticesDelivered(deps);
}

t.test('the plan cannot be read for a query only the vector side answers, then it can', async (t) => {
  const restore = await hideTable(deps.db, 'billing_subscriptions');
  let failed;
  let traced;
  try {
    await forgetPlan();
    failed = await search('skillet');
    traced = await search('skillet', true);
  } finally {
    await restore();
  }
  t.equal(failed.status, 200, JSON.stringify(failed.body).slice(0, 300));
  t.equal(failed.headers.get('x-search-cache'), 'miss');
  t.equal(failed.body.total, 0, 'lexical only: nothing matches the words');
  t.equal(traced.status, 200, JSON.stringify(traced.body).slice(0, 300));
  t.match(hybridStep(traced.body), { reason: 'plan check failed', rescued: false });

  const back = await search('skillet');
  t.equal(back.status, 200, JSON.stringify(back.body).slice(0, 300));
  t.equal(back.headers.get('x-search-cache'), 'miss', 'not the lexical answer from the cache');
  t.ok(back.body.total > 0, `the vector side's products: ${back.body.ids}`);
  const again = await search('skillet');
  t.equal(again.headers.get('x-search-cache'), 'hit', 'the full answer is cached');
  t.same(again.body.ids, back.body.ids);
});

t.test('the plan cannot be read for a query with lexical matches: the lexical results', async (t) => {
  const restore = await hideTable(deps.db, 'billing_subscriptions');
  let res;
  try {
    await forgetPlan();
    res = await search('travel kettle', true);
  } finally {
    await restore();
  }
  t.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  t.ok(res.body.ids.includes('k2'), `${res.body.ids}`);
  t.match(hybridStep(res.body), { reason: 'plan check failed' });
});
