import type { Logger } from '../logger.js';
import type { Queues } from './queues.js';
import { ensureSchedules, type Schedule } from './schedule.js';

/**
 * Schedules live only in Redis: a Redis that restarts empty (or fails over to a replica that
 * lacked them) loses them, and nothing would run again until a worker restarted. This keeps them
 * in place from every worker process: created at start, checked whenever the queues' connection
 * comes back and every `checkEveryMs`, re-created when missing. After a reconnect or a
 * re-creation, the schedules marked `recover` also run at once (one run per 10 s whichever
 * worker asks), to redo what may have been lost with Redis: sweeps, job reconciliation.
 *
 * Writing every schedule at start (so a changed definition replaces the one in Redis) can fail:
 * Redis stops or stalls mid-way and a command times out. That is never fatal to the process (it
 * used to be: `started` rejected and the worker exited, taking its running jobs' slots with it);
 * the next check, on reconnect or on the timer, writes every schedule again until one succeeds.
 */
export function keepSchedules(queues: Queues, schedules: Schedule[], opts: { checkEveryMs: number; logger: Logger }): { started: Promise<void>; stop(): void } {
  let running: Promise<void> | null = null;
  // Every schedule is written (not only the missing ones) until that has succeeded once.
  let writeAll = true;
  const check = async (reason: 'start' | 'reconnect' | 'timer'): Promise<void> => {
    // One check at a time; a reconnect during a check (that may have failed on the old connection) checks again.
    while (running) await running.catch(() => undefined);
    running = (async () => {
      if (writeAll) {
        await ensureSchedules(queues, schedules);
        writeAll = false;
        if (reason === 'start') return;
        // Written after a failed start: whatever Redis lost meanwhile is redone as after a reconnect.
        opts.logger.warn('schedules written after a failed attempt', { reason });
        return runNow(
          queues,
          schedules.filter((s) => s.recover),
        );
      }
      let missing = 0;
      for (const s of schedules) {
        if (await queues.get(s.job.queue).getJobScheduler(s.id)) continue;
        await ensureSchedules(queues, [s]);
        missing++;
      }
      if (missing) opts.logger.warn('schedules were missing from Redis and are back', { missing });
      if (missing || reason === 'reconnect')
        await runNow(
          queues,
          schedules.filter((s) => s.recover),
        );
    })().finally(() => (running = null));
    return running;
  };
  const retry = (reason: 'reconnect' | 'timer') => void check(reason).catch((err) => opts.logger.warn('could not check the schedules', { reason, err }));
  queues.onReconnect(() => retry('reconnect'));
  const timer = setInterval(() => retry('timer'), opts.checkEveryMs);
  timer.unref();
  const started = check('start').catch((err) => opts.logger.warn('could not write the schedules at start; retrying on reconnect and every check', { err }));
  return { started, stop: () => clearInterval(timer) };
}

async function runNow(queues: Queues, schedules: Schedule[]): Promise<void> {
  const window = Math.floor(Date.now() / 10_000);
  for (const s of schedules) {
    await queues.get(s.job.queue).add(
      s.job.name,
      { input: s.data, jobRowId: null },
      {
        jobId: `${s.id}-recover-${window}`,
        attempts: s.job.attempts,
        removeOnComplete: { age: 3600, count: 100 },
        removeOnFail: { age: 24 * 3600 },
      },
    );
  }
}
