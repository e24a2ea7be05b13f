import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { DEFAULT_MINING } from '../../shared/synonyms/synonyms.jobs.js';
import { startMining } from '../../shared/synonyms/start-mining.js';

/**
 * Daily fan-out: starts (or joins) a synonym_mining job for every tenant with a search in the last
 * `activeHours`. Re-runnable: a tenant's live mining job is joined, not duplicated.
 * Job id: schedule-mining-<day> when enqueued by hand; the job scheduler names its own runs.
 */
export const scheduleMining = defineStage({
  queue: 'mining',
  name: 'schedule-mining',
  schema: z.object({
    day: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    activeHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(24),
  }),
  jobId: (d) => `schedule-mining-${d.day ?? new Date().toISOString().slice(0, 10)}`,
  attempts: 3,
  async run({ data, deps, progress }) {
    const tenants = await deps.repos.events.tenantsSearchingSince(new Date(Date.now() - data.activeHours * 3600_000));
    let started = 0;
    for (const [i, tenantId] of tenants.entries()) {
      const { joined } = await startMining(deps, tenantId, DEFAULT_MINING, 'schedule');
      if (!joined) started++;
      await progress((i + 1) / tenants.length);
    }
    return { tenants: tenants.length, started, joined: tenants.length - started };
  },
});
