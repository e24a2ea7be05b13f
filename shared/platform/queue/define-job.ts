import type { z } from 'zod';

/**
 * A job's contract: its queue, name, validated data and business-key job id. Areas declare the
 * jobs they enqueue (`shared/<area>/<area>.jobs.ts`); a pipeline stage adds the `run` that does the
 * work (`pipelines/<area>/<name>.stage.ts`), so enqueuing never imports a pipeline.
 */
export interface JobSpec<T> {
  queue: string;
  name: string;
  schema: z.ZodType<T>;
  jobId(data: T): string;
  attempts: number;
  /** Higher number = lower priority, as BullMQ counts it. */
  priority?(data: T): number | undefined;
}

export type JobSpecDefinition<T> = Omit<JobSpec<T>, 'attempts'> & { attempts?: number };

/** Declares a job contract (5 attempts unless it says otherwise). */
export function defineJob<T>(def: JobSpecDefinition<T>): JobSpec<T> {
  if (def.name.includes(':')) throw new Error(`job name must not contain ':' (${def.name})`);
  return { attempts: 5, ...def };
}

/** The envelope stored as BullMQ job data. */
export interface StageJobData {
  input: unknown;
  jobRowId: string | null;
}
