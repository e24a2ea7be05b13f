import type { Deps } from '../../shared/deps.js';
import type { StageJobData } from '../../shared/queue/define-stage.js';
import { sweepUnindexed } from './sweep-unindexed.stage.js';

export const SWEEP_SCHEDULER_ID = 'sweep-unindexed';

/**
 * Creates or updates the BullMQ job scheduler that runs `sweep-unindexed` every
 * `config.sweepEveryMs` (SWEEP_EVERY_MS, default 5 minutes). Safe from every worker process:
 * one scheduler id, one schedule.
 */
export async function ensureSweepSchedule(deps: Deps): Promise<void> {
  const every = deps.config.sweepEveryMs;
  const data: StageJobData = { input: { graceMs: 120_000, limit: 20_000 }, jobRowId: null };
  await deps.queues.get(sweepUnindexed.queue).upsertJobScheduler(SWEEP_SCHEDULER_ID, { every }, {
    name: sweepUnindexed.name,
    data,
    opts: { attempts: sweepUnindexed.attempts, removeOnComplete: { age: 24 * 3600, count: 100 }, removeOnFail: { age: 7 * 24 * 3600 } },
  });
}
