import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { startReindex } from '../../../shared/catalog/index.js';
import { toJobOut } from '../../http/schemas.js';
import { Accepted, ReindexBody } from './reindex.schema.js';

const WRITE = { scope: 'catalog:write' as const };

/** Reindex (spec 4.5): rebuilds the search index from stored products with zero downtime. */
export function reindexRoutes(deps: Deps): RouteSpec[] {
  return [
    /** Rebuilds the index from stored products with zero downtime; a second request joins the running job. */
    defineRoute({
      method: 'post',
      path: '/v1/reindex',
      tag: 'catalog',
      summary: 'Rebuild the search index',
      auth: WRITE,
      idempotent: true,
      body: ReindexBody,
      responses: { 202: { description: 'accepted, with the job to poll', schema: Accepted } },
      async handle(ctx, { body }) {
        const { job } = await startReindex(deps, ctx.state.principal.tenantId, body.mode, body.reason ?? null);
        ctx.status = 202;
        ctx.body = { accepted: true, job: toJobOut(job) };
      },
    }),
  ];
}
