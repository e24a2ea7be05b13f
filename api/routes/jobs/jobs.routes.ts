import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError, notFound } from '../../../shared/platform/errors.js';
import { z } from 'zod';
import { cursorCodec, cursorPage, CursorId, CursorTime } from '../../../shared/platform/cursor.js';
import { Job, page, toJobOut } from '../../http/schemas.js';
import { JobParams, ListJobs } from './jobs.schema.js';
import { vectorLag } from '../../../shared/vectors/index.js';
import { openSealedFields, Sealer } from '../../../shared/platform/sealed.js';
import type { JobRow } from '../../../shared/jobs/index.js';

/** The list page plus how far the vectors trail the catalog (the embed stages run after lexical indexing). */
const JobsPage = page(Job).extend({
  vector_lag: z
    .object({
      pending: z.number().int().describe('products whose latest version has no vector yet'),
      oldest_s: z.number().nullable().describe('seconds the oldest of them has waited'),
    })
    .nullable()
    .describe('null while the vector store (Qdrant) cannot be asked: the jobs are answered all the same'),
});

const JOBS = { scope: 'jobs' as const };
/** Newest first by (created_at at millisecond precision, id). */
const jobsCursor = cursorCodec(z.strictObject({ created_at: CursorTime, id: CursorId }));

/** Read and cancel the tenant's jobs (the shared jobs table). */
export function jobRoutes(deps: Deps): RouteSpec[] {
  const jobs = deps.repos.jobs;
  const sealer = new Sealer(deps.config.secretEncryptionKey);
  // A result's sealed fields (an export's download link) are opened for the store that owns the job.
  const jobOut = (row: JobRow) => {
    const out = toJobOut(row);
    return out.result ? { ...out, result: openSealedFields(out.result, sealer) } : out;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/v1/jobs',
      tag: 'jobs',
      summary: 'List jobs, newest first',
      auth: JOBS,
      query: ListJobs,
      responses: { 200: { description: 'page of jobs (a finished job is kept 30 days after it ends by default; the operator sets it)', schema: JobsPage } },
      async handle(ctx, { query }) {
        const cursor = jobsCursor.decode(query.cursor);
        const body = await cursorPage(
          jobsCursor,
          query.limit,
          (n) => jobs.list(ctx.state.principal.tenantId, { kind: query.kind, status: query.status, cursor, limit: n }),
          (last) => ({ created_at: last.created_at.toISOString(), id: last.id }),
          jobOut,
        );
        // The jobs list is read from Postgres: a vector store that cannot be asked leaves only the lag unknown.
        const lag = await vectorLag(deps.db, deps.vectors, ctx.state.principal.tenantId).catch((err) => {
          if (deps.vectors.name === 'postgres') throw err;
          deps.logger.warn('vector lag unknown: the vector store did not answer', { err });
          return null;
        });
        ctx.body = { ...body, vector_lag: lag };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/jobs/{job_id}',
      tag: 'jobs',
      summary: 'Get a job (poll until terminal)',
      auth: JOBS,
      params: JobParams,
      responses: {
        200: {
          description:
            'the job (404 once a finished job passed its retention: 30 days by default). A failed `sync` job is started again by the service: it goes back to `queued` and ends with the outcome of the run that finishes it',
          schema: Job,
        },
      },
      async handle(ctx, { params }) {
        const row = await jobs.find(ctx.state.principal.tenantId, params.job_id);
        if (!row) throw notFound('job');
        ctx.body = jobOut(row);
      },
    }),
    /** Cancels a queued job at once; a running one stops at its next progress check. */
    defineRoute({
      method: 'post',
      path: '/v1/jobs/{job_id}/cancel',
      tag: 'jobs',
      summary: 'Cancel a job',
      auth: JOBS,
      params: JobParams,
      responses: {
        200: {
          description:
            'the job after the request: a queued job is canceled at once, a running one ends `canceled` at its next check (a reindex then drops the generation it was building, even between a failed attempt and its retry; a `sync` job keeps the products it deleted, ends its cleanup so the `sync_id` is free after its completed hold, and writes `result.deleted` once that is done)',
          schema: Job,
        },
      },
      async handle(ctx, { params }) {
        const row = await jobs.requestCancel(ctx.state.principal.tenantId, params.job_id);
        if (!row) throw notFound('job');
        if (row.status === 'succeeded' || row.status === 'failed') {
          throw new AppError('job_finished', 409, `the job already ${row.status}`);
        }
        ctx.body = jobOut(row);
      },
    }),
  ];
}
