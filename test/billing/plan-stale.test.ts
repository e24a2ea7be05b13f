import t from 'tap';
import { setup } from '../helpers/harness.js';
import { eventually, noticesDelivered } from '../helpers/workers.js';
import { subscribe } from '../helpers/subscribe.js';
import { allAnswer, limitOf, planApp, RETRY, TTL } from './plan-app.js';

/**
 * A store's plan on the search path once it is older than its TTL: it answers at once while one
 * reload per store runs; a reload that fails (Postgres cut away from the plan reads) keeps the
 * old plan answering and is tried again after the back-off; a `subscription` notice still makes
 * the next search read the plan afresh. The search itself reads Postgres directly (not through
 * the cut proxy), as a search on Typesense would not need Postgres at all.
 */

const h = await setup();
const app = await planApp(h);
t.teardown(async () => {
  await app.close();
  await h.close();
});
const deps = h.api.deps;
const { clock, reads, proxy } = app;

const searchAs = (key: string) => async () => {
  const res = await app.call('GET', '/v1/search?q=kettle', { key });
  return `${res.status} ${limitOf(res)}`;
};
/** Puts the store on a plan and waits until this process's own notice came back from Redis too. */
const changePlan = async (tenantId: string, planCode: string) => {
  await subscribe(deps, tenantId, planCode);
  await noticesDelivered(deps);
};
/** Changes the plan in Postgres without the notice: only a reload can see it. */
const setPlanQuietly = (tenantId: string, planCode: string) => deps.db('billing_subscriptions').where({ tenant_id: tenantId }).update({ plan_code: planCode });

t.test('past its TTL, a plan whose reload fails still answers, with the plan in the usage header', async (t) => {
  const store = await h.tenant('stale store');
  const search = searchAs(store.key);
  await changePlan(store.id, 'starter');
  t.equal(await search(), '200 50000', 'the plan read');
  const before = { started: reads.started, failed: reads.failed };
  proxy.cut();
  try {
    clock.at += TTL + 1;
    t.equal(await search(), '200 50000', 'past the TTL: the held plan answers at once');
    await eventually(async () => reads.failed > before.failed);
    for (let i = 0; i < 3; i++) t.equal(await search(), '200 50000', `after the failed reload, search ${i + 1}: the held plan`);
    t.equal(reads.started - before.started, 1, 'within the back-off: no other reload');
    clock.at += RETRY;
    t.equal(await search(), '200 50000', 'the back-off over: still the held plan');
    await eventually(async () => reads.failed > before.failed + 1);
    t.equal(reads.started - before.started, 2, 'one more reload after the back-off, failed too');
  } finally {
    proxy.restore();
  }
  await setPlanQuietly(store.id, 'growth');
  clock.at += RETRY;
  t.equal(await search(), '200 50000', 'Postgres back: the held plan answers while it reloads');
  await eventually(async () => (await search()) === '200 250000');
  t.pass('the reload brought the plan in Postgres');
});

t.test('one reload per store in flight, however many searches; the held plan answers meanwhile', async (t) => {
  const store = await h.tenant('busy store');
  const search = searchAs(store.key);
  await changePlan(store.id, 'starter');
  t.equal(await search(), '200 50000');
  await setPlanQuietly(store.id, 'growth');
  const before = reads.started;
  const release = app.holdNext();
  clock.at += TTL + 1;
  let during: string[] = [];
  try {
    during = await allAnswer(Array.from({ length: 8 }, () => search()));
  } finally {
    release();
  }
  t.same(during, Array(8).fill('200 50000'), 'the held plan answered every search, the reload still held');
  t.equal(reads.started - before, 1, 'one reload');
  await eventually(async () => (await search()) === '200 250000');
  t.equal(reads.started - before, 1, 'the reloaded plan answers: no other reload');
});

t.test('a notice applies a plan change at once, also over a reload in flight that read the old plan', async (t) => {
  const store = await h.tenant('changing store');
  const search = searchAs(store.key);
  await changePlan(store.id, 'starter');
  t.equal(await search(), '200 50000');
  await subscribe(deps, store.id, 'growth');
  t.equal(await search(), '200 250000', 'the next search after the notice: the new plan');
  await noticesDelivered(deps);

  const release = app.holdNext();
  const read = reads.read;
  clock.at += TTL + 1;
  let during: string[] = [];
  try {
    during = await allAnswer([search()]);
    await eventually(async () => reads.read > read);
    // The reload has read growth and is held; the plan changes and its notice comes before the reload ends.
    await changePlan(store.id, 'scale');
    during.push(...(await allAnswer([search()])));
  } finally {
    release();
  }
  t.same(during, ['200 250000', '200 1500000'], 'the held plan while it reloads; after the notice, the new plan');
  await eventually(async () => reads.done === reads.read);
  t.equal(await search(), '200 1500000', 'the older reload did not bring back the old plan');
});
