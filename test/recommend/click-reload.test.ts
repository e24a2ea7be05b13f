import t from 'tap';
import { setup } from '../helpers/harness.js';
import { eventually } from '../helpers/workers.js';
import { hideTable } from '../helpers/pg-fault.js';
import { ClickBoosts } from '../../shared/recommend/index.js';

/**
 * Click learning's statistics while a newer copy is being read (a signals notice, or a minute
 * passed): one reload per store is in flight at a time, the searches meanwhile answer with the
 * statistics held, and a reload that failed is tried again no sooner than the back-off. The
 * statistics are read from the test's own Postgres; the test counts the reads and holds one in
 * flight, and moves the clock the class reads.
 */

const h = await setup();
t.teardown(() => h.close());
const deps = h.api.deps;
const { id: tenantId } = await h.tenant('click reload');
const stat = (query: string, product: string) =>
  deps.db('click_stats').insert({ tenant_id: tenantId, query, product_id: product, clicks: 30, searches: 30, attractiveness: 0.9, examinations: 30 });
await stat('kettle', 'k1');

/** The reads of the statistics: started, failed, and a gate that holds the next ones in flight until opened. */
const reads = { started: 0, failed: 0, gate: null as Promise<void> | null };
const hold = () => {
  let open!: () => void;
  reads.gate = new Promise<void>((r) => (open = r));
  return () => {
    reads.gate = null;
    open();
  };
};
const load = async (id: string) => {
  reads.started++;
  if (reads.gate) await reads.gate;
  try {
    return await deps.repos.signals.clickStats(id);
  } catch (err) {
    reads.failed++;
    throw err;
  }
};
const clock = { at: 1_000_000 };
const TTL = 60_000;
const RETRY = 5_000;
const clicks = new ClickBoosts(load, TTL, RETRY, () => clock.at);
const boostOf = async (q: string, product: string) => (await clicks.forQuery(tenantId, q))?.boosts.get(product) ?? null;

t.test('the first load: searches at once share it', async (t) => {
  const got = await Promise.all(Array.from({ length: 5 }, () => boostOf('kettle', 'k1')));
  t.same(got, [0.9, 0.9, 0.9, 0.9, 0.9]);
  t.equal(reads.started, 1, 'one read');
});

t.test('stale after a notice: one reload in flight, the old statistics answer meanwhile', async (t) => {
  await stat('mug', 'm1');
  const release = hold();
  clicks.changed(tenantId);
  const before = reads.started;
  try {
    for (let i = 0; i < 5; i++) t.equal(await boostOf('mug', 'm1'), null, `search ${i + 1}: the old statistics`);
    t.equal(reads.started - before, 1, 'one reload started, however many searches');
  } finally {
    release();
  }
  await eventually(async () => (await boostOf('mug', 'm1')) === 0.9);
  t.equal(reads.started - before, 1, 'the new statistics answer: no other reload');
});

t.test('a minute old: one reload in flight', async (t) => {
  await stat('lamp', 'l1');
  const release = hold();
  clock.at += TTL + 1;
  const before = reads.started;
  try {
    for (let i = 0; i < 5; i++) t.equal(await boostOf('lamp', 'l1'), null, `search ${i + 1}: the old statistics`);
    t.equal(reads.started - before, 1, 'one reload started');
  } finally {
    release();
  }
  await eventually(async () => (await boostOf('lamp', 'l1')) === 0.9);
  t.equal(reads.started - before, 1);
});

t.test('a reload that fails: the old statistics answer, and it is tried again no sooner than the back-off', async (t) => {
  const restore = await hideTable(deps.db, 'click_stats');
  try {
    clicks.changed(tenantId);
    const before = reads.started;
    t.equal(await boostOf('kettle', 'k1'), 0.9, 'the old statistics');
    await eventually(async () => reads.failed === 1);
    for (let i = 0; i < 5; i++) t.equal(await boostOf('kettle', 'k1'), 0.9, `search ${i + 1} after the failure: the old statistics`);
    clock.at += RETRY - 1;
    t.equal(await boostOf('kettle', 'k1'), 0.9);
    t.equal(reads.started - before, 1, 'not tried again within the back-off');
    clock.at += 1;
    t.equal(await boostOf('kettle', 'k1'), 0.9);
    t.equal(reads.started - before, 2, 'tried again once the back-off is over');
    await eventually(async () => reads.failed === 2);
    t.equal(await boostOf('kettle', 'k1'), 0.9);
    t.equal(reads.started - before, 2, 'and again not within the next back-off');
  } finally {
    await restore();
  }
  await stat('desk', 'd1');
  clock.at += RETRY;
  const before = reads.started;
  await eventually(async () => (await boostOf('desk', 'd1')) === 0.9);
  t.equal(reads.started - before, 1, 'one reload after the back-off brings the new statistics');
  t.equal(await boostOf('desk', 'd1'), 0.9);
  t.equal(reads.started - before, 1, 'no other');
});

t.test('a first load that fails: the search fails, the next one loads again', async (t) => {
  const other = await h.tenant('click reload, first load');
  const fresh = new ClickBoosts(load, TTL, RETRY, () => clock.at);
  const restore = await hideTable(deps.db, 'click_stats');
  try {
    await t.rejects(fresh.forQuery(other.id, 'kettle'));
  } finally {
    await restore();
  }
  t.equal(await fresh.forQuery(other.id, 'kettle'), null, 'loaded: no statistics for the query');
});
