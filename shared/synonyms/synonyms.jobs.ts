import { z } from 'zod';
import { defineJob } from '../platform/queue/define-job.js';

/** The furthest back mining reads the search log and events (the retention of both is at least this). */
export const MAX_MINING_DAYS = 90;

export const MiningParams = z.object({
  /** How far back the search log and events are read. */
  days: z.number().int().min(1).max(MAX_MINING_DAYS),
  /** Fewest distinct sessions behind a proposal. */
  minSessions: z.number().int().min(1).max(10_000),
});
export type MiningParams = z.output<typeof MiningParams>;
export const DEFAULT_MINING: MiningParams = { days: 30, minSessions: 3 };

/** Mine one tenant's search log for synonym suggestions (pipelines/synonyms/mine-synonyms.stage.ts). Job id: mine-synonyms-<job row>. */
export const mineSynonymsJob = defineJob({
  queue: 'mining',
  name: 'mine-synonyms',
  schema: MiningParams.extend({ tenantId: z.string().min(1), jobRowId: z.string().min(1) }),
  jobId: (d) => `mine-synonyms-${d.jobRowId}`,
  attempts: 3,
});
