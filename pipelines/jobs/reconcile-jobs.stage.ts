import { z } from 'zod';
import { UnrecoverableError } from 'bullmq';
import type { Deps } from '../../shared/deps.js';
import type { JobKind, JobRow } from '../../shared/jobs/jobs.repo.js';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import type { JobSpec } from '../../shared/platform/queue/define-job.js';
import { buildGenerationJob, finishSyncJob } from '../../shared/catalog/catalog.jobs.js';
import { mineSynonymsJob } from '../../shared/synonyms/synonyms.jobs.js';
import { collectJob, PROVIDER_QUEUE, restartData, TRANSLATION_QUEUE } from '../../shared/translation/index.js';
import { buildVectorsJob } from '../../shared/vectors/index.js';
import { catalogExportJob, dataDeleteJob, dataExportJob } from '../../shared/tenant-data/index.js';

const LIVE = ['waiting', 'prioritized', 'active', 'delayed', 'waiting-children'] as const;

/**
 * How a kind of job starts over: its first stage with its data, and the queues its later stages run
 * on (read whole for a live job of the row; the first stage's own job is looked up by its id).
 */
interface Restart {
  queues: string[];
  first(row: JobRow): { job: JobSpec<any>; data: unknown };
}
const RESTARTS: Partial<Record<JobKind, Restart>> = {
  reindex: {
    queues: ['reindex'],
    first: (row) => ({
      job: buildGenerationJob,
      data: { tenantId: row.tenant_id, jobRowId: row.id, mode: row.params.mode === 'settings_only' ? 'settings_only' : 'full' },
    }),
  },
  // Collect again: items are upserts, chunk job ids and chunk marks are keyed by run and chunk.
  translate_backfill: {
    queues: [TRANSLATION_QUEUE, PROVIDER_QUEUE],
    first: (row) => ({ job: collectJob, data: restartData(row.tenant_id, row.id, row.params) }),
  },
  // Trains again and fills a fresh generation (a re-run drops the half-built one).
  embed: {
    queues: [buildVectorsJob.queue],
    first: (row) => ({ job: buildVectorsJob, data: { tenantId: row.tenant_id, jobRowId: row.id } }),
  },
  synonym_mining: {
    queues: ['mining'],
    first: (row) => ({ job: mineSynonymsJob, data: { ...row.params, tenantId: row.tenant_id, jobRowId: row.id } }),
  },
  // One stage each, re-runnable (an archive and its link are keyed by the row; a deletion deletes what is left).
  // Their queue was not read before stop 40: an export waiting or running over the grace was failed
  // as lost, and its later success was dropped (a finished row is never written again).
  export: {
    queues: [catalogExportJob.queue],
    first: (row) => ({ job: catalogExportJob, data: { tenantId: row.tenant_id, jobRowId: row.id } }),
  },
  data_export: {
    queues: [dataExportJob.queue],
    first: (row) => ({ job: dataExportJob, data: { tenantId: row.tenant_id, jobRowId: row.id } }),
  },
  data_delete: {
    queues: [dataDeleteJob.queue],
    first: (row) => ({
      job: dataDeleteJob,
      data: { tenantId: row.tenant_id, jobRowId: row.id, ...(row.params.requested_by ? { requestedBy: row.params.requested_by } : {}) },
    }),
  },
  // One stage, resumed from the sync's checkpoint. Its queue (catalog) holds every index job: not read whole.
  sync: {
    queues: [],
    first: (row) => ({ job: finishSyncJob, data: { tenantId: row.tenant_id, syncId: row.params.sync_id, jobRowId: row.id } }),
  },
};

/**
 * Queues a row's first stage again, unless its job is still waiting or running (false). BullMQ
 * ignores an add under an id it still keeps, and it keeps finished jobs (a failure for 7 days): a
 * row whose final write was lost (the database down as its last attempt failed) would never start
 * over. A finished job under that id goes first.
 */
async function restart(deps: Deps, row: JobRow, how: Restart): Promise<boolean> {
  const first = how.first(row);
  const parsed = first.job.schema.safeParse(first.data);
  if (!parsed.success) throw new UnrecoverableError(`its parameters no longer start ${first.job.name}: ${parsed.error.message}`);
  const held = await deps.queues.get(first.job.queue).getJob(first.job.jobId(parsed.data));
  if (held && !held.finishedOn) return false;
  if (held) await held.remove();
  await deps.queues.enqueue(first.job, first.data, { jobRowId: row.id });
  return true;
}

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
        try {
          if (await restart(deps, row, how)) restarted++;
        } catch (err) {
          // A row that cannot start over (its parameters refused, its job id held by another row) fails alone: the rows after it still run.
          if (!(err instanceof UnrecoverableError || err instanceof z.ZodError)) throw err;
          await deps.repos.jobs.finish(row.id, 'failed', { error: `its queued work was lost and it could not start over: ${err.message}` });
          failed++;
        }
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
