import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { reconcileJobs } from './reconcile-jobs.stage.js';

export const RECONCILE_SCHEDULER_ID = 'reconcile-jobs';

/** Jobs: keep jobs rows and their queued work in step (work lost with Redis starts over). */
export const stages = [reconcileJobs];

/** `reconcile-jobs` every SWEEP_EVERY_MS, and at once when Redis comes back. */
export const schedules = (config: Config): Schedule[] => [
  { id: RECONCILE_SCHEDULER_ID, job: reconcileJobs, repeat: { every: config.sweepEveryMs }, data: {}, recover: true },
];
