import { z } from 'zod';
import type { Deps } from '../../shared/deps.js';
import type { JobKind, JobRow } from '../../shared/jobs/jobs.repo.js';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { buildGenerationJob } from '../../shared/catalog/catalog.jobs.js';
import { mineSynonymsJob } from '../../shared/synonyms/synonyms.jobs.js';
import { collectJob, PROVIDER_QUEUE, restartData, TRANSLATION_QUEUE } from '../../shared/translation/index.js';
import { buildVectorsJob } from '../../shared/vectors/index.js';

const LIVE = ['waiting', 'prioritized', 'active', 'delayed', 'waiting-children'] as const;

/** How a kind of job starts over from its first stage, and the queues its stages run on. */
const RESTARTS: Partial<Record<JobKind, { queues: string[]; restart(deps: Deps, row: JobRow): Promise<unknown> }>> = {
  reindex: {
    queues: ['reindex'],
    restart: (deps, row) =>
      deps.queues.enqueue(
        buildGenerationJob,
        { tenantId: row.tenant_id, jobRowId: row.id, mode: row.params.mode === 'settings_only' ? 'settings_only' : 'full' },
        { jobRowId: row.id },
      ),
  },
  // Collect again: items are upserts, chunk job ids and chunk marks are keyed by run and chunk.
  translate_backfill: {
    queues: [TRANSLATION_QUEUE, PROVIDER_QUEUE],
    restart: (deps, row) => deps.queues.enqueue(collectJob, restartData(row.tenant_id, row.id, row.params), { jobRowId: row.id }),
  },
  // Trains again and fills a fresh generation (a re-run drops the half-built one).
  embed: {
    queues: [buildVectorsJob.queue],
    restart: (deps, row) => deps.queues.enqueue(buildVectorsJob, { tenantId: row.tenant_id, jobRowId: row.id }, { jobRowId: row.id }),
  },
  synonym_mining: {
    queues: ['mining'],
    restart: (deps, row) => deps.queues.enqueue(mineSynonymsJob, { ...row.params, tenantId: row.tenant_id, jobRowId: row.id } as never, { jobRowId: row.id }),
  },
};

/**
 * Finds jobs rows that are queued or running while no BullMQ job works for them (lost with a
 * Redis that restarted empty, or a queueing that failed after the row was written) and starts
 * them over from their first stage (every stage is re-runnable), or fails them with a reason a
 * client can act on when their kind cannot start over. A row younger than `graceMs` may still
 * be being queued and is left alone. Runs every SWEEP_EVERY_MS and when Redis comes back.
 */
export const reconcileJobs = defineStage({
  queue: 'maintenance',
  name: 'reconcile-jobs',
  schema: z.object({ graceMs: z.number().int().min(0).default(60_000), run: z.string().optional() }),
  jobId: (d) => `reconcile-jobs-${d.run ?? newId('run')}`,
  attempts: 2,
  async run({ data, deps }) {
    // Queues first, then rows: a job that ends in between has already written its row.
    const working = await rowsWithJobs(deps);
    const rows = await deps.repos.jobs.liveOlderThan(data.graceMs);
    let restarted = 0;
    let failed = 0;
    for (const row of rows.filter((r) => !working.has(r.id))) {
      const how = RESTARTS[row.kind];
      if (row.cancel_requested) {
        await deps.repos.jobs.finish(row.id, 'canceled', {});
      } else if (how) {
        await how.restart(deps, row);
        restarted++;
      } else {
        await deps.repos.jobs.finish(row.id, 'failed', { error: 'its queued work was lost (the queue store restarted); start it again' });
        failed++;
      }
    }
    if (restarted + failed) deps.logger.warn('jobs without queued work found', { restarted, failed });
    return { checked: rows.length, restarted, failed };
  },
});

/** Ids of the jobs rows some live BullMQ job works for. */
async function rowsWithJobs(deps: Deps): Promise<Set<string>> {
  const queues = [...new Set(Object.values(RESTARTS).flatMap((r) => r!.queues))];
  const ids = new Set<string>();
  for (const name of queues) {
    for (const job of await deps.queues.get(name).getJobs([...LIVE], 0, -1)) {
      const rowId = job?.data?.jobRowId;
      if (typeof rowId === 'string') ids.add(rowId);
    }
  }
  return ids;
}
