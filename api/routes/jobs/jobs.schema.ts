import { z } from 'zod';
import { JOB_KINDS, JOB_STATUSES } from '../../../shared/jobs/jobs.repo.js';
import { Cursor, Limit } from '../../http/schemas.js';

export const JobParams = z.object({ job_id: z.string().max(64) });

export const ListJobs = z.strictObject({
  kind: z.enum(JOB_KINDS).optional(),
  status: z.enum(JOB_STATUSES).optional(),
  cursor: Cursor,
  limit: Limit(50, 200),
});
