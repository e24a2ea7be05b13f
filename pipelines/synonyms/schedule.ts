import type { Deps } from '../../shared/deps.js';
import type { StageJobData } from '../../shared/platform/queue/define-stage.js';
import { scheduleMining } from './schedule-mining.stage.js';

export const MINING_SCHEDULER_ID = 'mining-daily';
export const DEFAULT_MINING_CRON = '0 3 * * *';

/**
 * Creates or updates the BullMQ job scheduler that runs `schedule-mining` once a day (cron from
 * MINING_CRON, default 03:00; MINING_TZ sets its time zone, default the process's). Safe to call
 * from every worker process: upserting the same scheduler id keeps one schedule.
 */
export async function ensureMiningSchedule(deps: Deps, env: Record<string, string | undefined> = process.env): Promise<void> {
  const pattern = env.MINING_CRON || DEFAULT_MINING_CRON;
  const data: StageJobData = { input: { activeHours: 24 }, jobRowId: null };
  await deps.queues.get(scheduleMining.queue).upsertJobScheduler(
    MINING_SCHEDULER_ID,
    { pattern, ...(env.MINING_TZ ? { tz: env.MINING_TZ } : {}) },
    {
      name: scheduleMining.name,
      data,
      opts: {
        attempts: scheduleMining.attempts,
        backoff: { type: 'exponential', delay: 5000 },
        removeOnComplete: { age: 7 * 24 * 3600, count: 100 },
        removeOnFail: { age: 30 * 24 * 3600 },
      },
    },
  );
  deps.logger.info('mining schedule set', { scheduler: MINING_SCHEDULER_ID, pattern });
}
