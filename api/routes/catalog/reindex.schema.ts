import { z } from 'zod';
import { Job } from '../../http/schemas.js';

export const ReindexBody = z.strictObject({
  mode: z.enum(['full', 'settings_only']).default('full'),
  reason: z.string().max(200).nullish(),
});

export const Accepted = z.object({ accepted: z.boolean(), job: Job.nullable() });
