import t from 'tap';
import { setup } from '../helpers/harness.js';
import { rollupUsage, usagePeriod, type UsageRepo } from '../../shared/usage/index.js';

// Two roll-ups at once (a recovery run beside the scheduled one, a run slower than
// USAGE_ROLLUP_EVERY_MS on another worker): the one that read Redis first may write last. Its
// lower read must not be taken for an older Redis snapshot restored, which would bill the
// difference a second time.
const h = await setup();
t.teardown(() => h.close());
const deps = h.api.deps;
const { id: tenantId } = await h.tenant();
const prefix = h.config.queuePrefix;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The tenant's searches today as rolled up. */
const rolled = async () => {
  const row = await deps.db('usage_daily').where({ tenant_id: tenantId, metric: 'search', day: usagePeriod().day }).first();
  return row ? Number(row.base) + Number(row.seen) : 0;
};
const searches = async (n: number) => {
  deps.usage.count(tenantId, 'search', n);
  await deps.usage.flush();
};

/** The usage repo whose writes land `ms` late (a run that read Redis, then waited on Postgres). */
type RollupRepo = Parameters<typeof rollupUsage>[2];
const late = (ms: number): RollupRepo => {
  const base = deps.repos.usage as UsageRepo;
  const slow = (r: Pick<UsageRepo, 'rollup'>) => ({ rollup: async (rows: Parameters<UsageRepo['rollup']>[0]) => (await sleep(ms), r.rollup(rows)) });
  return { ...base, ...slow(base), exclusive: (fn: (r: Pick<UsageRepo, 'rollup'>) => Promise<unknown>) => base.exclusive((r) => fn(slow(r))) } as RollupRepo;
};

t.test('overlapping roll-ups count every search once', async (t) => {
  await searches(100);
  await rollupUsage(deps.redis, prefix, deps.repos.usage);
  t.equal(await rolled(), 100);
  await searches(10);
  const first = rollupUsage(deps.redis, prefix, late(600));
  await sleep(150);
  await searches(25);
  const second = rollupUsage(deps.redis, prefix, deps.repos.usage);
  await Promise.all([first, second]);
  await rollupUsage(deps.redis, prefix, deps.repos.usage);
  t.equal(await deps.usage.dayCount(tenantId, usagePeriod().day), 135, 'Redis counted 135');
  t.equal(await rolled(), 135, 'rolled up: 135, none counted twice');
  await searches(5);
  await rollupUsage(deps.redis, prefix, deps.repos.usage);
  t.equal(await rolled(), 140);
});
