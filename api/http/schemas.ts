import { z } from 'zod';
import { JOB_KINDS, JOB_STATUSES, type JobRow } from '../../shared/jobs/jobs.repo.js';
import { Timestamp } from '../../shared/platform/schemas.js';

export { Timestamp };

/** Schemas shared by several route groups (section 2.1 of the spec). */
export const Cursor = z.string().max(200).nullish();
export const Limit = (def: number, max: number) => queryInt(int().min(1).max(max).default(def));

/** Decimal digits with an optional leading minus: the only writing of an integer a query parameter takes. */
const DECIMAL_INT = /^-?[0-9]+$/;

/**
 * An integer query parameter: `schema` (an `int()`) over the text read as a number when it is
 * decimal digits; any other text (`0x10`, `0b11`, `1e1`, ` 2`, `2.0`) stays text, which `int()`
 * refuses with 400 `validation_failed` naming the parameter. z.coerce read every JavaScript
 * number literal (`page=0x10` was page 16).
 */
export function queryInt<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && DECIMAL_INT.test(v) ? Number(v) : v), schema);
}

/** An integer whose wrong type is named plainly (a query parameter's text that is not decimal digits). */
export const int = () => z.int({ error: (issue) => (issue.code === 'invalid_type' ? 'an integer in decimal digits (0-9)' : undefined) });

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
