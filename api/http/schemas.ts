import { z } from 'zod';
import { JOB_KINDS, JOB_STATUSES, type JobRow } from '../../shared/jobs/jobs.repo.js';
import { Timestamp } from '../../shared/platform/schemas.js';

export { Timestamp };

/** Schemas shared by several route groups (section 2.1 of the spec). */
export const Cursor = z.string().max(200).nullish();
export const Limit = (def: number, max: number) => z.coerce.number().int().min(1).max(max).default(def);

export const Job = z.object({
  id: z.string(),
  kind: z.enum(JOB_KINDS),
  status: z.enum(JOB_STATUSES),
  progress: z.number().min(0).max(1),
  created_at: Timestamp,
  started_at: Timestamp.nullable(),
  finished_at: Timestamp.nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
});

export const Deleted = z.object({ deleted: z.boolean(), id: z.string() });

export function page<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable(), total: z.number().int().nullable().optional() });
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toJobOut(row: JobRow) {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    progress: row.progress,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    result: row.result,
    error: row.error,
  };
}
