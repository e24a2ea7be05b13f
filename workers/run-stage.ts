import { RATE_LIMIT_ERROR, UnrecoverableError, type Job } from 'bullmq';
import type { Deps } from '../shared/deps.js';
import type { Stage, StageJobData } from '../shared/platform/queue/define-stage.js';

const CANCEL_POLL_MS = 1000;

/**
 * Runs one BullMQ job through its stage and keeps the jobs row in step: running on start,
 * progress as reported, succeeded after the last stage, failed once on the final attempt,
 * canceled when a cancel was requested and the stage stopped for it (threw once its signal aborted).
 */
export async function runStage(stage: Stage<unknown>, job: Job<StageJobData>, deps: Deps): Promise<unknown> {
  const rowId = job.data.jobRowId;
  const jobs = deps.repos.jobs;
  const parsed = stage.schema.safeParse(job.data.input);
  if (!parsed.success) {
    const message = `invalid job data for ${stage.name}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`;
    if (rowId) await jobs.finish(rowId, 'failed', { error: message });
    throw new UnrecoverableError(message);
  }
  if (rowId) {
    const row = await jobs.markRunning(rowId);
    if (!row) {
      // Canceled while queued (the API ends such a row at once): its undo runs as its job leaves the queue.
      if (stage.canceled && (await jobs.get(rowId))?.status === 'canceled') await undo(stage, rowId, parsed.data, deps);
      return { skipped: 'job is no longer live' };
    }
    if (row.cancel_requested) return cancel(stage, rowId, parsed.data, deps);
  }

  if (deps.config.faultStageDelayMs) await new Promise((r) => setTimeout(r, deps.config.faultStageDelayMs));
  const controller = new AbortController();
  const poll = rowId ? setInterval(() => void checkCancel(), CANCEL_POLL_MS) : undefined;
  async function checkCancel() {
    const row = await jobs.get(rowId!).catch(() => undefined);
    if (row?.cancel_requested) controller.abort();
  }
  let handedOn = false;
  try {
    const result = await stage.run({
      data: parsed.data,
      job,
      deps,
      signal: controller.signal,
      jobRowId: rowId,
      async progress(fraction) {
        await job.updateProgress(Math.round(fraction * 1000) / 1000);
        if (!rowId) return;
        const row = await jobs.setProgress(rowId, fraction);
        // A stage that reports progress stops there once canceled, without checking anything itself.
        if (!row || row.cancel_requested) controller.abort();
        controller.signal.throwIfAborted();
      },
      async next(nextStage, data) {
        handedOn = true;
        await deps.queues.enqueue(nextStage, data, { jobRowId: rowId });
      },
      detach() {
        handedOn = true;
      },
    });
    // A stage that stops for a cancel throws (signal.throwIfAborted()); one that returns did its
    // work, so the row says succeeded even when a cancel came too late to stop it. A stage that
    // handed on leaves the row to the next one, which sees the cancel before it starts.
    if (rowId && !handedOn) await jobs.finish(rowId, 'succeeded', { result: result ?? null });
    return result;
  } catch (err) {
    if (controller.signal.aborted && rowId) return cancel(stage, rowId, parsed.data, deps);
    if (isReschedule(err)) throw err;
    const final = err instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (final) {
      deps.logger.error('stage failed', { stage: stage.name, jobId: job.id, err });
      if (rowId) await jobs.finish(rowId, 'failed', { error: err instanceof Error ? err.message : String(err) });
    }
    throw err;
  } finally {
    if (poll) clearInterval(poll);
  }
}

/** Ends the row canceled and, when this call ended it, undoes what the pipeline left for this stage (Stage.canceled). */
async function cancel(stage: Stage<unknown>, rowId: string, data: unknown, deps: Deps): Promise<{ canceled: true }> {
  if (await deps.repos.jobs.finish(rowId, 'canceled', {})) await undo(stage, rowId, data, deps);
  return { canceled: true };
}

/** Runs the stage's undo for a row that says canceled. */
async function undo(stage: Stage<unknown>, rowId: string, data: unknown, deps: Deps): Promise<void> {
  // The row already says canceled: a failed undo is logged, not retried as the job's failure.
  await stage.canceled?.({ data, deps }).catch((err) => deps.logger.error('undoing a canceled stage failed', { stage: stage.name, rowId, err }));
}

/** Errors by which BullMQ puts a job back (rate limit, delay, waiting children) without spending an attempt. */
function isReschedule(err: unknown): boolean {
  return err instanceof Error && (err.message === RATE_LIMIT_ERROR || ['DelayedError', 'WaitingError', 'WaitingChildrenError'].includes(err.name));
}
