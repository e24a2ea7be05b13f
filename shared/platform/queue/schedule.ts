import type { Queues } from './queues.js';
import type { JobSpec, StageJobData } from './define-job.js';

/** A repeatable job: BullMQ job scheduler `id` runs `job` with `data` every `every` ms or on a cron `pattern`. */
export interface Schedule {
  id: string;
  job: JobSpec<any>;
  repeat: { every: number } | { pattern: string; tz?: string };
  data: unknown;
  /** How long finished runs are kept (seconds): default a day of successes, a week of failures. */
  keep?: { completed: number; failed: number };
  backoffMs?: number;
  /** Also run at once when the workers' Redis comes back or the schedule had vanished (see keepSchedules). */
  recover?: boolean;
}

/**
 * Creates or updates each schedule's BullMQ job scheduler. Safe from every worker process and on
 * every call: one scheduler id is one schedule, updated in place.
 */
export async function ensureSchedules(queues: Queues, schedules: Schedule[]): Promise<void> {
  for (const s of schedules) {
    const data: StageJobData = { input: s.data, jobRowId: null };
    const keep = s.keep ?? { completed: 24 * 3600, failed: 7 * 24 * 3600 };
    const repeat = 'every' in s.repeat ? { every: s.repeat.every } : { pattern: s.repeat.pattern, ...(s.repeat.tz ? { tz: s.repeat.tz } : {}) };
    await queues.get(s.job.queue).upsertJobScheduler(s.id, repeat, {
      name: s.job.name,
      data,
      opts: {
        attempts: s.job.attempts,
        ...(s.backoffMs ? { backoff: { type: 'exponential', delay: s.backoffMs } } : {}),
        removeOnComplete: { age: keep.completed, count: 100 },
        removeOnFail: { age: keep.failed },
      },
    });
  }
}
