import type { Deps } from '../../shared/deps.js';
import type { StageJobData } from '../../shared/platform/queue/define-stage.js';
import { sweepUnindexed } from './sweep-unindexed.stage.js';
import { maintainTables } from '../maintenance/maintain-tables.stage.js';

export const SWEEP_SCHEDULER_ID = 'sweep-unindexed';
export const MAINTAIN_SCHEDULER_ID = 'maintain-tables';

/**
 * Creates or updates the BullMQ job schedulers of the maintenance queue: `sweep-unindexed` and
 * `maintain-tables`, each every `config.sweepEveryMs` (SWEEP_EVERY_MS, default 5 minutes). Safe
 * from every worker process: one scheduler id each, one schedule.
 */
export async function ensureSweepSchedule(deps: Deps): Promise<void> {
  const every = deps.config.sweepEveryMs;
  const queue = deps.queues.get(sweepUnindexed.queue);
  const keep = { removeOnComplete: { age: 24 * 3600, count: 100 }, removeOnFail: { age: 7 * 24 * 3600 } };
  const sweep: StageJobData = { input: { graceMs: 120_000, limit: 20_000 }, jobRowId: null };
  await queue.upsertJobScheduler(SWEEP_SCHEDULER_ID, { every }, { name: sweepUnindexed.name, data: sweep, opts: { attempts: sweepUnindexed.attempts, ...keep } });
  const maintain: StageJobData = { input: {}, jobRowId: null };
  await queue.upsertJobScheduler(MAINTAIN_SCHEDULER_ID, { every }, { name: maintainTables.name, data: maintain, opts: { attempts: maintainTables.attempts, ...keep } });
}
