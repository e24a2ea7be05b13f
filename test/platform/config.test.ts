import t from 'tap';
import { ConfigError, loadConfig } from '../../shared/platform/config.js';

t.test('defaults apply, and a bad value is a readable ConfigError naming the variable', async (t) => {
  t.equal(loadConfig({}).sweepEveryMs, 300_000);
  t.equal(loadConfig({ SWEEP_EVERY_MS: '60000' }).sweepEveryMs, 60_000);
  for (const bad of ['often', '5']) {
    const err = (() => {
      try {
        loadConfig({ SWEEP_EVERY_MS: bad });
        return null;
      } catch (e) {
        return e;
      }
    })();
    t.ok(err instanceof ConfigError, `${bad}: a ConfigError`);
    t.match((err as Error).message, /SWEEP_EVERY_MS/);
  }
  t.throws(() => loadConfig({ WORKER_CONCURRENCY: 'catalog' }), /WORKER_CONCURRENCY/);
});

t.test('retention: documented defaults; the search log and events are never kept less than the 90 days mining reads', async (t) => {
  t.same(loadConfig({}).retention, { everyMs: 3_600_000, analyticsDays: 90, jobDays: 30, deliveryDays: 30, syncIdleDays: 7 });
  t.equal(loadConfig({ SYNC_IDLE_DAYS: '14' }).retention.syncIdleDays, 14);
  t.throws(() => loadConfig({ SYNC_IDLE_DAYS: '0' }), /SYNC_IDLE_DAYS/);
  t.equal(loadConfig({ ANALYTICS_RETENTION_DAYS: '365' }).retention.analyticsDays, 365);
  t.throws(() => loadConfig({ ANALYTICS_RETENTION_DAYS: '89' }), /ANALYTICS_RETENTION_DAYS/);
  t.throws(() => loadConfig({ JOB_RETENTION_DAYS: '0' }), /JOB_RETENTION_DAYS/);
  t.throws(() => loadConfig({ PURGE_EVERY_MS: '1000' }), /PURGE_EVERY_MS/);
});

t.test('a schedule cron pattern or time zone the job schedulers cannot read is a ConfigError, not a worker crash at start', async (t) => {
  for (const [name, value] of [
    ['MINING_CRON', 'every day'],
    ['MINING_CRON', '0 3 * *'],
    ['BILLING_RECONCILE_CRON', 'daily at 4'],
    ['MINING_CRON', 'at three in the morning'],
    ['MINING_TZ', 'Mars/Olympus'],
  ]) {
    t.throws(() => loadConfig({ [name]: value }), new RegExp(name), `${name}=${value}`);
    t.ok(
      (() => {
        try {
          loadConfig({ [name]: value });
        } catch (e) {
          return e instanceof ConfigError;
        }
      })(),
      'a ConfigError',
    );
  }
  t.equal(loadConfig({ MINING_CRON: '0 3 * * mon,wed,FRI-SUN' }).mining.cron, '0 3 * * mon,wed,FRI-SUN', 'day names in a list');
  const ok = loadConfig({ MINING_CRON: '0 30 3 * * MON-FRI', MINING_TZ: 'Asia/Riyadh', BILLING_RECONCILE_CRON: '*/15 4 1,15 * *' });
  t.same([ok.mining.cron, ok.mining.tz, ok.billing.reconcileCron], ['0 30 3 * * MON-FRI', 'Asia/Riyadh', '*/15 4 1,15 * *']);
});
