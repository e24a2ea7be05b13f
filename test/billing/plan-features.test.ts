import t from 'tap';
import { setup } from '../helpers/harness.js';
import { subscribe as subscribeTo } from '../helpers/subscribe.js';

// Plan features are checked where their work starts (README, Errors): an experiment's start and a
// translation backfill that is not a dry run; drafts, estimates, reads and stops on every plan.
const h = await setup({ BILLING_DEFAULT_PLAN: 'free' });
t.teardown(() => h.close());
const { deps } = h.api;
const subscribe = (tenantId: string, planCode: string) => subscribeTo(deps, tenantId, planCode);

const experiment = {
  name: 'two ways',
  variants: [
    { key: 'control', traffic_percent: 50 },
    { key: 'b', traffic_percent: 50, ranking: { in_stock_first: false } },
  ],
};

t.test('experiments: a draft on any plan, starting one needs the plan feature; the refused start frees its key', async (t) => {
  const store = await h.tenant('Free store');
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key: store.key, body, headers });
  const draft = await call('POST', '/v1/experiments', experiment);
  t.equal(draft.status, 201, 'a draft on the free plan');
  const refused = await call('POST', `/v1/experiments/${draft.body.id}/start`);
  t.equal(refused.status, 402);
  t.equal(refused.body.error.code, 'feature_not_in_plan');
  t.same(refused.body.error.details, { feature: 'experiments', plan: 'free' });
  t.equal((await call('GET', `/v1/experiments/${draft.body.id}`)).body.status, 'draft', 'nothing started');
  await subscribe(store.id, 'growth');
  const started = await h.api.call('POST', `/v1/experiments/${draft.body.id}/start`, { key: store.key });
  t.equal(started.status, 200, JSON.stringify(started.body).slice(0, 200));
  t.equal(started.body.status, 'running');
  await subscribe(store.id, 'free');
  t.equal((await call('POST', `/v1/experiments/${draft.body.id}/stop`)).status, 200, 'a store that moved down can still stop it');
});

t.test('translation: an estimate on any plan, a backfill needs the plan feature; the same key runs after the change of plan', async (t) => {
  const store = await h.tenant('Translating store');
  const call = (body: unknown, headers?: Record<string, string>) => h.api.call('POST', '/v1/translate/backfill', { key: store.key, body, headers });
  t.equal((await call({ dry_run: true })).status, 202, 'an estimate on the free plan');
  const key = { 'Idempotency-Key': 'backfill-plan-0001' };
  const refused = await call({}, key);
  t.equal(refused.status, 402);
  t.same(refused.body.error.details, { feature: 'translation', plan: 'free' });
  await subscribe(store.id, 'starter');
  const ran = await call({}, key);
  t.equal(ran.status, 202, 'the 402 freed the key: the retry after the upgrade runs');
  t.equal(ran.headers.get('idempotent-replayed'), null);
});
