import type { Job } from 'bullmq';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';

/** What a stage's `run` receives. */
export interface StageContext<T> {
  data: T;
  job: Job;
  deps: Deps;
  /** Aborts when the job row is canceled; long stages check it between chunks. */
  signal: AbortSignal;
  /** The jobs row this stage works for, if any. */
  jobRowId: string | null;
  /** Reports progress 0..1 to BullMQ and the jobs row (and notices cancellation). */
  progress(fraction: number): Promise<void>;
  /** Hands the pipeline to the next stage; the jobs row stays running until the last stage ends. */
  next<N>(stage: Stage<N>, data: N): Promise<void>;
}

export interface Stage<T> {
  queue: string;
  name: string;
  schema: z.ZodType<T>;
  jobId(data: T): string;
  attempts: number;
  /** Higher number = lower priority, as BullMQ counts it. */
  priority?(data: T): number | undefined;
  run(ctx: StageContext<T>): Promise<unknown>;
}

export interface StageDefinition<T> {
  queue: string;
  name: string;
  schema: z.ZodType<T>;
  jobId(data: T): string;
  attempts?: number;
  priority?(data: T): number | undefined;
  run(ctx: StageContext<T>): Promise<unknown>;
}

/** Declares a pipeline stage: its queue, job name, validated data and business-key job id. */
export function defineStage<T>(def: StageDefinition<T>): Stage<T> {
  if (def.name.includes(':')) throw new Error(`stage name must not contain ':' (${def.name})`);
  return { attempts: 5, ...def };
}

/** The envelope stored as BullMQ job data. */
export interface StageJobData {
  input: unknown;
  jobRowId: string | null;
}
