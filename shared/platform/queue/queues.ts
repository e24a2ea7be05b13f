import { Queue, UnrecoverableError } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobSpec, StageJobData } from './define-job.js';
import { withDeadline } from '../dependency-errors.js';
import { watchRedis } from '../redis-link.js';

/** Days BullMQ keeps a job that failed for good (retryable from the queue dashboard meanwhile); removed lazily, when a later job of its queue fails. */
export const FAILED_JOB_KEPT_DAYS = 7;

/**
 * One BullMQ Queue per name, opened on first use and closed together. Queue calls fail within
 * `commandTimeoutMs` while Redis is down or slow (ioredis' commandTimeout; enqueue also has a
 * deadline, as BullMQ first waits for the connection to be ready), so no request hangs on them.
 */
export class Queues {
  private queues = new Map<string, Queue>();
  private connection?: Redis;
  private reconnected: Array<() => void> = [];
  /** Set by close(): readers that outlive the process's deps (metrics) stop asking. */
  closed = false;

  constructor(
    private redisUrl: string,
    readonly prefix: string,
    private commandTimeoutMs = 2_000,
    /** Errors of the connection and queues (reconnect attempts while Redis is down); unheard, BullMQ prints each one's stack. */
    private onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Runs `fn` each time the queues' connection is ready again after it was lost (see watchRedis). */
  onReconnect(fn: () => void): void {
    this.reconnected.push(fn);
  }

  get(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      if (!this.connection) {
        this.connection = new Redis(this.redisUrl, { maxRetriesPerRequest: null, commandTimeout: this.commandTimeoutMs });
        this.connection.on('error', this.onError);
        watchRedis(this.connection, () => this.reconnected.forEach((fn) => fn()));
      }
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      q.on('error', this.onError);
      this.queues.set(name, q);
    }
    return q;
  }

  /** Validates `data` against the job's schema and adds it under the stage's job id. */
  async enqueue<T>(stage: JobSpec<T>, data: T, opts: { jobRowId?: string | null; delayMs?: number; priority?: number } = {}): Promise<string> {
    const parsed = stage.schema.safeParse(data);
    if (!parsed.success) throw new UnrecoverableError(`invalid data for ${stage.name}: ${parsed.error.message}`);
    const jobId = stage.jobId(parsed.data);
    if (jobId.includes(':')) throw new Error(`job id must not contain ':' (${jobId})`);
    const payload: StageJobData = { input: parsed.data, jobRowId: opts.jobRowId ?? null };
    const queue = this.get(stage.queue);
    await withDeadline(
      queue.add(stage.name, payload, {
        jobId,
        attempts: stage.attempts,
        backoff: { type: 'exponential', delay: 500 },
        priority: opts.priority ?? stage.priority?.(parsed.data),
        delay: opts.delayMs,
        removeOnComplete: { age: 3600, count: 1000 },
        removeOnFail: { age: FAILED_JOB_KEPT_DAYS * 24 * 3600 },
      }),
      this.commandTimeoutMs,
      `queueing ${stage.name}`,
    );
    if (payload.jobRowId) {
      // BullMQ ignores an add whose job id it still holds: right for a re-run handing on again
      // (same row), a silent stall if another row's job holds the id. Say so instead.
      const held = await queue.getJob(jobId);
      if (held && held.data.jobRowId !== payload.jobRowId) {
        throw new UnrecoverableError(`job id ${jobId} is held by job row ${held.data.jobRowId}, not ${payload.jobRowId}`);
      }
    }
    return jobId;
  }

  /**
   * Queues `data` again for a sweep that finds work whose job was lost: adds it when no job holds its id, and
   * retries the job (with its attempts counted afresh) when it failed for good, since BullMQ keeps a failed job
   * for a week and silently ignores an add under its id. A job still waiting, delayed, running or completed is
   * left alone ('held'): the stage it runs decides whether there is still work. `jobRowId`: the jobs row an
   * added job works for (a retried one keeps its own).
   */
  async requeue<T>(stage: JobSpec<T>, data: T, opts: { jobRowId?: string | null } = {}): Promise<'added' | 'retried' | 'held'> {
    const parsed = stage.schema.safeParse(data);
    if (!parsed.success) throw new UnrecoverableError(`invalid data for ${stage.name}: ${parsed.error.message}`);
    const held = await this.get(stage.queue).getJob(stage.jobId(parsed.data));
    if (!held) {
      await this.enqueue(stage, data, { jobRowId: opts.jobRowId });
      return 'added';
    }
    if (!(await held.isFailed())) return 'held';
    await held.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return 'retried';
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    if (this.connection) await this.connection.quit().catch(() => undefined);
    this.connection = undefined;
  }
}
