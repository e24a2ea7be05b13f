import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { newId } from '../../shared/platform/ids.js';
import { ensureSchedules } from '../../shared/platform/queue/schedule.js';
import { schedules, MINING_SCHEDULER_ID } from '../../pipelines/synonyms/index.js';
import { scheduleMining } from '../../pipelines/synonyms/schedule-mining.stage.js';

const { h } = await setupWithWorkers();
const deps = h.api.deps;
const active = await h.tenant('active store');
const stale = await h.tenant('stale store');
const silent = await h.tenant('silent store');
const search = (tenantId: string, hoursAgo: number) =>
  deps.repos.searchLog.insertMany([
    {
      id: newId('srch'),
      tenant_id: tenantId,
      session: 's',
      query: 'q',
      normalized: 'q',
      lang: 'en',
      filters: {},
      sort: null,
      total: 1,
      page: 1,
      took_ms: 1,
      zero_result: false,
      created_at: new Date(Date.now() - hoursAgo * 3600_000),
    },
  ]);
await search(active.id, 2);
await search(stale.id, 48);
const miningJobs = async (tenantId: string) => await deps.repos.jobs.list(tenantId, { kind: 'synonym_mining', limit: 50 });
const queue = deps.queues.get('mining');
/** The daily schedule as the workers set it, with MINING_CRON = `cron` (default 03:00). */
const ensureMiningSchedule = (cron = '0 3 * * *') => ensureSchedules(deps.queues, schedules({ ...h.config, mining: { cron } }));

t.test('one daily scheduler, updated in place', async (t) => {
  await ensureMiningSchedule();
  await ensureMiningSchedule();
  let schedulers = await queue.getJobSchedulers();
  t.equal(schedulers.length, 1);
  t.match(schedulers[0], { key: MINING_SCHEDULER_ID, name: 'schedule-mining', pattern: '0 3 * * *' });
  await ensureMiningSchedule('30 2 * * *');
  schedulers = await queue.getJobSchedulers();
  t.equal(schedulers.length, 1);
  t.equal(schedulers[0].pattern, '30 2 * * *');
});

t.test('the fan-out starts a mining job for each tenant that searched in the last day', async (t) => {
  await deps.queues.enqueue(scheduleMining, { day: '2099-01-01', activeHours: 24 });
  const [job] = await eventually(async () => {
    const rows = await miningJobs(active.id);
    return rows.length > 0 && rows[0].status === 'succeeded' ? rows : null;
  });
  t.match(job, { status: 'succeeded', progress: 1, params: { trigger: 'schedule', days: 30, minSessions: 3 } });
  t.same(await miningJobs(stale.id), [], 'no search in the last day');
  t.same(await miningJobs(silent.id), []);
});

t.test("the scheduler's own job template runs the fan-out", async (t) => {
  const before = (await miningJobs(active.id)).length;
  await ensureMiningSchedule('* * * * * *'); // every second
  await eventually(async () => (await miningJobs(active.id)).length > before, 8000);
  await queue.removeJobScheduler(MINING_SCHEDULER_ID);
  t.pass('a scheduled run started a mining job');
});
