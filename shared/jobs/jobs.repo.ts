import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';

export const JOB_KINDS = [
  'reindex',
  'import',
  'sync',
  'translate_backfill',
  'translate_writeback',
  'export',
  'data_export',
  'data_delete',
  'embed',
  'synonym_mining',
] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL: readonly JobStatus[] = ['succeeded', 'failed', 'canceled'];

export interface JobRow {
  id: string;
  tenant_id: string;
  kind: JobKind;
  status: JobStatus;
  progress: number;
  params: Record<string, unknown>;
  result: Record<string, unknown> | null;
  error: string | null;
  dedupe_key: string | null;
  cancel_requested: boolean;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface JobFilter {
  kind?: JobKind;
  status?: JobStatus;
  cursor?: { created_at: string; id: string };
  limit: number;
}

export function jobsRepo(db: Knex) {
  const jobs = () => db<JobRow>('jobs');
  return {
    /**
     * Creates a queued job, or returns the live one with the same dedupe key
     * (`joined: true`), so a second reindex request joins the first.
     */
    async create(tenantId: string, kind: JobKind, params: Record<string, unknown> = {}, dedupeKey?: string): Promise<{ job: JobRow; joined: boolean }> {
      const row = { id: newId('job'), tenant_id: tenantId, kind, params, dedupe_key: dedupeKey ?? null };
      for (let attempt = 0; attempt < 3; attempt++) {
        const inserted = await db.raw(
          `INSERT INTO jobs (id, tenant_id, kind, params, dedupe_key) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL AND status IN ('queued','running') DO NOTHING
           RETURNING *`,
          [row.id, row.tenant_id, row.kind, JSON.stringify(params), row.dedupe_key],
        );
        if (inserted.rows[0]) return { job: inserted.rows[0], joined: false };
        const live = await jobs().where({ tenant_id: tenantId, dedupe_key: dedupeKey }).whereIn('status', ['queued', 'running']).first();
        if (live) return { job: live, joined: true };
      }
      throw new Error('could not create or join job');
    },
    async find(tenantId: string, id: string): Promise<JobRow | undefined> {
      return jobs().where({ tenant_id: tenantId, id }).first();
    },
    async get(id: string): Promise<JobRow | undefined> {
      return jobs().where({ id }).first();
    },
    /**
     * Newest first. The cursor carries created_at as a JS Date's ISO string (milliseconds) while
     * Postgres keeps microseconds, so order and compare at millisecond precision: otherwise rows
     * created within the cursor row's millisecond fall between pages.
     */
    async list(tenantId: string, f: JobFilter): Promise<JobRow[]> {
      const q = jobs().where({ tenant_id: tenantId });
      if (f.kind) q.andWhere({ kind: f.kind });
      if (f.status) q.andWhere({ status: f.status });
      if (f.cursor) {
        const { created_at: at, id } = f.cursor;
        q.andWhereRaw(`(date_trunc('milliseconds', created_at), id) < (?::timestamptz, ?)`, [at, id]);
      }
      return q.orderByRaw(`date_trunc('milliseconds', created_at) desc, id desc`).limit(f.limit);
    },
    /** Live (queued or running) rows created over `olderThanMs` ago, oldest first: what reconcile-jobs checks against the queues. */
    async liveOlderThan(olderThanMs: number, limit = 1000): Promise<JobRow[]> {
      return jobs()
        .whereIn('status', ['queued', 'running'])
        .andWhere('created_at', '<', db.raw(`now() - ? * interval '1 millisecond'`, [olderThanMs]) as unknown as Date)
        .orderBy('created_at')
        .limit(limit);
    },
    /** The newest row with `dedupeKey` created at or after `since` (the row of one occurrence of the work, whatever its status). */
    async newest(tenantId: string, dedupeKey: string, since: Date): Promise<JobRow | undefined> {
      return jobs().where({ tenant_id: tenantId, dedupe_key: dedupeKey }).andWhere('created_at', '>=', since).orderBy('created_at', 'desc').first();
    },
    /** queued -> running (only from queued or running; a canceled job stays canceled). */
    async markRunning(id: string): Promise<JobRow | undefined> {
      const [row] = await jobs()
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .update({ status: 'running', started_at: db.raw('coalesce(started_at, now())') as unknown as Date })
        .returning('*');
      return row as JobRow | undefined;
    },
    /** Progress only moves forward, and only while the job is live. */
    async setProgress(id: string, progress: number): Promise<JobRow | undefined> {
      const p = Math.min(1, Math.max(0, progress));
      const [row] = await jobs()
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .update({ progress: db.raw('greatest(progress, ?)', [p]) as unknown as number })
        .returning('*');
      return row as JobRow | undefined;
    },
    /** Writes a terminal state once; later calls change nothing. */
    async finish(id: string, status: 'succeeded' | 'failed' | 'canceled', fields: { result?: unknown; error?: string }): Promise<boolean> {
      const n = await jobs()
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .update({
          status,
          result: (fields.result ?? null) as JobRow['result'],
          error: fields.error ?? null,
          progress: status === 'succeeded' ? 1 : (db.raw('progress') as unknown as number),
          finished_at: db.fn.now() as unknown as Date,
          started_at: db.raw('coalesce(started_at, now())') as unknown as Date,
        });
      return n > 0;
    },
    /** The result of a canceled job, known only once its cancel has settled (a sync's cleanup: what it deleted before it stopped). */
    async setCanceledResult(id: string, result: Record<string, unknown>): Promise<boolean> {
      return (await jobs().where({ id, status: 'canceled' }).update({ result })) > 0;
    },
    /**
     * failed -> queued, for work a sweep starts again after it failed for good (resume-syncs), so
     * the row a client holds ends with the outcome of the run that finishes the work. False when
     * the row is not failed, or a live row with its dedupe key has taken over meanwhile.
     */
    async reopen(id: string): Promise<boolean> {
      try {
        return (await jobs().where({ id, status: 'failed' }).update({ status: 'queued', error: null, result: null, finished_at: null })) > 0;
      } catch (err) {
        if ((err as { code?: string }).code === '23505') return false;
        throw err;
      }
    },
    /** Rewrites a failed row's error (a sweep that stops restarting the work says so); false when the row is not failed. */
    async amendFailure(id: string, error: string): Promise<boolean> {
      return (await jobs().where({ id, status: 'failed' }).update({ error })) > 0;
    },
    /** Queued jobs are canceled at once; running ones are flagged and stop at their next check. */
    async requestCancel(tenantId: string, id: string): Promise<JobRow | undefined> {
      return db.transaction(async (trx) => {
        const row = await trx<JobRow>('jobs').where({ tenant_id: tenantId, id }).forUpdate().first();
        if (!row || TERMINAL.includes(row.status)) return row;
        const patch =
          row.status === 'queued'
            ? { status: 'canceled' as const, cancel_requested: true, finished_at: trx.fn.now() as unknown as Date }
            : { cancel_requested: true };
        const [updated] = await trx<JobRow>('jobs').where({ id }).update(patch).returning('*');
        return updated as JobRow;
      });
    },
  };
}
