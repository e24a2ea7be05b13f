import type { Job } from 'bullmq';
import { defineJob, type JobSpec, type JobSpecDefinition } from './define-job.js';

export type { StageJobData } from './define-job.js';

/** What a stage's `run` receives; `D` is the dependencies the workers pass (pipelines bind it to Deps). */
export interface StageContext<T, D> {
  data: T;
  job: Job;
  deps: D;
  /** Aborts when the job row is canceled; long stages check it between chunks. */
  signal: AbortSignal;
  /** The jobs row this stage works for, if any. */
  jobRowId: string | null;
  /** Reports progress 0..1 to BullMQ and the jobs row (and notices cancellation). */
  progress(fraction: number): Promise<void>;
  /** Hands the pipeline to the next stage; the jobs row stays running until the last stage ends. */
  next<N>(job: JobSpec<N>, data: N): Promise<void>;
  /**
   * Leaves the jobs row running when this stage ends: work it fanned out (chunks) will finish the
   * row. Without it, a stage that returns without `next` marks the row succeeded.
   */
  detach(): void;
}

/** A job contract with the work that runs it. */
export interface Stage<T, D = any> extends JobSpec<T> {
  run(ctx: StageContext<T, D>): Promise<unknown>;
  /**
   * Undoes what earlier stages left for this one when the jobs row ends canceled at this stage
   * (before it ran, or when it stopped for the cancel): a reindex's swap drops the generation its
   * build left, which every write would otherwise keep updating. Runs after the row is canceled:
   * as the stage stops, or as the job of a row canceled while queued leaves the queue; so it must be
   * safe to run again (a worker killed during it, a sweep that finishes it).
   */
  canceled?(ctx: { data: T; deps: D }): Promise<void>;
}

export type StageDefinition<T, D> = JobSpecDefinition<T> & Pick<Stage<T, D>, 'run' | 'canceled'>;

/** Declares a pipeline stage: a job contract (often spread from the area's `.jobs.ts`) and its `run`. */
export function defineStage<T, D = any>(def: StageDefinition<T, D>): Stage<T, D> {
  return { ...defineJob(def), run: def.run, canceled: def.canceled };
}
