import { UnrecoverableError, Worker } from 'bullmq';
import type { Deps } from '../shared/deps.js';
import type { Stage, StageJobData } from '../shared/platform/queue/define-stage.js';
import { runStage } from './run-stage.js';
import { withLogScope } from '../shared/platform/logger.js';
import { jobSeconds, watchQueues } from '../shared/platform/metrics.js';
import { stagesByQueue } from './registry.js';
import { throttledWarn } from '../shared/platform/throttled-log.js';

export interface Workers {
  workers: Worker[];
  close(): Promise<void>;
}

/** One BullMQ Worker per queue that has stages; concurrency per queue from config (default 2). */
export function startWorkers(deps: Deps, stages: Stage<any>[], opts: { queues?: string[] } = {}): Workers {
  const workers: Worker[] = [];
  for (const [queue, byName] of stagesByQueue(stages)) {
    if (opts.queues && !opts.queues.includes(queue)) continue;
    const worker = new Worker<StageJobData>(
      queue,
      async (job) => {
        const stage = byName.get(job.name);
        if (!stage) throw new UnrecoverableError(`no stage named ${job.name} on queue ${queue}`);
        const t0 = performance.now();
        let outcome = 'failed';
        try {
          const result = await withLogScope({ job_id: job.id }, () => runStage(stage, job, deps));
          outcome = 'succeeded';
          return result;
        } finally {
          jobSeconds.observe({ queue, stage: stage.name, outcome }, (performance.now() - t0) / 1000);
        }
      },
      {
        // Back within 2 s of Redis answering again (BullMQ's own default backs off to 20 s).
        connection: { url: deps.config.redisUrl, maxRetriesPerRequest: null, retryStrategy: (times: number) => Math.min(times * 200, 2_000) } as never,
        prefix: deps.config.queuePrefix,
        concurrency: deps.config.workerConcurrency[queue] ?? 2,
        // A dead worker's jobs are found stalled within lockDuration + stalledInterval (10 + 5 s by
        // default) and re-run elsewhere. A lock lost to a long event-loop stall (not a death) re-runs
        // a job too, harmless as stages are re-runnable: the second such stall fails the job.
        lockDuration: deps.config.workerLockMs,
        stalledInterval: stalledIntervalMs(deps.config.workerLockMs),
        maxStalledCount: 2,
      },
    );
    worker.on('error', throttledWarn(deps.logger, 'worker error', { queue }));
    // Final failures runStage never saw (no stage for the name, stalled past maxStalledCount) would
    // leave the jobs row live forever; finish() writes only a live row, so runStage's own write wins.
    worker.on('failed', (job, err) => {
      const rowId = job?.finishedOn ? job.data?.jobRowId : null;
      if (!rowId) return;
      deps.repos.jobs
        .finish(rowId, 'failed', { error: err.message })
        .then((written) => written && deps.logger.error('job failed outside its stage', { queue, jobId: job!.id, err }))
        .catch((e) => deps.logger.warn('could not fail the job row', { queue, jobId: job!.id, err: e }));
    });
    workers.push(worker);
  }
  const unwatch = watchQueues({ alive: () => !deps.queues.closed, names: () => workers.map((w) => w.name), counts: (q) => deps.queues.get(q).getJobCounts() });
  return {
    workers,
    async close() {
      unwatch();
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}

/** How often workers look for stalled jobs: half the lock, at most 5 s. */
export function stalledIntervalMs(lockMs: number): number {
  return Math.max(250, Math.min(5_000, Math.floor(lockMs / 2)));
}
