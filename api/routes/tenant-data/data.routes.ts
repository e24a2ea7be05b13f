import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError } from '../../../shared/platform/errors.js';
import { startJob } from '../../../shared/jobs/index.js';
import { catalogExportJob, dataDeleteJob, dataExportJob } from '../../../shared/tenant-data/index.js';
import { toJobOut } from '../../http/schemas.js';
import { Accepted, CatalogExportBody, DeleteBody, DownloadParams, DownloadQuery, ExportBody } from './data.schema.js';

const ADMIN = { scope: 'admin' as const, kinds: ['secret' as const, 'session' as const] };

/** Tenant data: export everything (data_export), export the catalog (export), delete the store (data_delete), download an archive. */
export function dataRoutes(deps: Deps): RouteSpec[] {
  return [
    /** Starts a data_export job (a running one is joined); its result carries the download link. */
    defineRoute({
      method: 'post',
      path: '/v1/data/export',
      tag: 'tenant-data',
      summary: "Export all of the store's data",
      auth: ADMIN,
      body: ExportBody,
      responses: { 202: { description: 'accepted, with the job to poll', schema: Accepted } },
      async handle(ctx) {
        const tenantId = ctx.state.principal.tenantId;
        const { job } = await startJob(deps, { tenantId, kind: 'data_export', params: {}, first: dataExportJob, data: (jobRowId) => ({ tenantId, jobRowId }) });
        ctx.status = 202;
        ctx.body = { accepted: true, job: toJobOut(job) };
      },
    }),
    /** Starts an export job: the catalog as JSON lines (a running one is joined). */
    defineRoute({
      method: 'post',
      path: '/v1/products/export',
      tag: 'catalog',
      summary: 'Export the catalog as JSON lines',
      auth: { scope: 'catalog:read' as const },
      body: CatalogExportBody,
      responses: { 202: { description: 'accepted, with the job to poll', schema: Accepted } },
      async handle(ctx) {
        const tenantId = ctx.state.principal.tenantId;
        const { job } = await startJob(deps, {
          tenantId,
          kind: 'export',
          params: { format: 'jsonl' },
          first: catalogExportJob,
          data: (jobRowId) => ({ tenantId, jobRowId }),
        });
        ctx.status = 202;
        ctx.body = { accepted: true, job: toJobOut(job) };
      },
    }),
    /** Starts the data_delete job: the store and everything of it, everywhere; an audit record remains. Needs the tenant id as confirmation. */
    defineRoute({
      method: 'post',
      path: '/v1/data/delete',
      tag: 'tenant-data',
      summary: 'Delete the store and all of its data',
      auth: ADMIN,
      body: DeleteBody,
      responses: { 202: { description: 'accepted: the job deletes its own row with the store; the audit record remains', schema: Accepted } },
      async handle(ctx, { body }) {
        const p = ctx.state.principal;
        if (body.confirm !== p.tenantId) {
          throw new AppError('confirmation_mismatch', 400, "confirm must be this store's tenant id", [
            { field: 'confirm', code: 'confirmation_mismatch', message: 'type the tenant id to confirm' },
          ]);
        }
        const { job } = await startJob(deps, {
          tenantId: p.tenantId,
          kind: 'data_delete',
          // On the row too: reconcile-jobs restarts a deletion whose queued work was lost, and the audit record names who asked.
          params: { requested_by: `${p.kind}:${p.id}` },
          first: dataDeleteJob,
          data: (jobRowId) => ({ tenantId: p.tenantId, jobRowId, requestedBy: `${p.kind}:${p.id}` }),
        });
        ctx.status = 202;
        ctx.body = { accepted: true, job: toJobOut(job) };
      },
    }),
    /** Downloads an archive with the token from its job's result, until the link expires (410 after). No key: the token is the credential. */
    defineRoute({
      method: 'get',
      path: '/v1/data/exports/{export_id}/download',
      tag: 'tenant-data',
      summary: 'Download an export archive',
      auth: null,
      params: DownloadParams,
      query: DownloadQuery,
      responses: {
        200: { description: 'the archive (tar.gz of JSON lines)', schema: z.string(), contentType: 'application/gzip' },
        410: { description: '`link_expired`: the link has expired, export again' },
      },
      async handle(ctx, { params, query }) {
        const row = await deps.repos.dataExports.byToken(params.export_id, query.token);
        if (!row) throw new AppError('not_found', 404, 'export not found');
        if (new Date(row.expires_at).getTime() < Date.now()) throw new AppError('link_expired', 410, 'the download link has expired: export again');
        ctx.type = 'application/gzip';
        ctx.attachment(basename(row.file));
        ctx.set('Cache-Control', 'no-store');
        ctx.body = createReadStream(row.file);
      },
    }),
  ];
}
