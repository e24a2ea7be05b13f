import type { Context } from 'koa';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { notFound } from '../../../shared/platform/errors.js';
import { requireFeature } from '../../../shared/billing/index.js';
import { cursorPage, timeIdCursor } from '../../../shared/platform/cursor.js';
import { experimentsService, toExperimentOut, type ExperimentFields } from '../../../shared/experiments/index.js';
import { Deleted, page } from '../../http/schemas.js';
import { ExperimentIn, ExperimentOut, ExperimentParams, ExperimentResults, ListExperiments } from './experiments.schema.js';

const READ = { scope: 'experiments:read' as const };
const WRITE = { scope: 'experiments:write' as const };

type ExperimentBody = {
  name: string;
  variants: Array<{ key: string; traffic_percent: number; ranking?: Record<string, unknown> | null; rule_ids: string[] }>;
  primary_metric: ExperimentFields['primary_metric'];
  min_sample: number;
};
const fields = (b: ExperimentBody): ExperimentFields => ({
  name: b.name,
  primary_metric: b.primary_metric,
  min_sample: b.min_sample,
  variants: b.variants.map((v) => ({ key: v.key, traffic_percent: v.traffic_percent, ranking: v.ranking ?? null, rule_ids: v.rule_ids })),
});

/** A/B experiments: CRUD, start and stop (at most one running per store), results (README, Experiments). */
export function experimentRoutes(deps: Deps): RouteSpec[] {
  const repo = deps.repos.experiments;
  const service = experimentsService({ db: deps.db, notices: deps.notices, repos: deps.repos, existingRules: (t, ids) => deps.repos.rules.existing(t, ids) });
  const tenantOf = (ctx: Context): string => ctx.state.principal.tenantId;
  const one = (verb: 'start' | 'stop', summary: string) =>
    defineRoute({
      method: 'post',
      path: `/v1/experiments/{experiment_id}/${verb}`,
      tag: 'experiments',
      summary,
      auth: WRITE,
      params: ExperimentParams,
      responses: { 200: { description: 'the experiment', schema: ExperimentOut } },
      async handle(ctx, { params }) {
        // Drafts on any plan; running one is the plan's experiments feature (stopping never is).
        if (verb === 'start') await requireFeature(deps.entitlements, tenantOf(ctx), 'experiments');
        ctx.body = toExperimentOut(await service[verb](tenantOf(ctx), params.experiment_id));
      },
    });

  return [
    /** Read-only: the tenant's experiments, oldest first. */
    defineRoute({
      method: 'get',
      path: '/v1/experiments',
      tag: 'experiments',
      summary: 'List experiments (cursor pages, oldest first)',
      auth: READ,
      query: ListExperiments,
      responses: { 200: { description: 'page of experiments', schema: page(ExperimentOut) } },
      async handle(ctx, { query }) {
        const after = timeIdCursor.decode(query.cursor);
        ctx.body = await cursorPage(
          timeIdCursor,
          query.limit,
          (n) => repo.list(tenantOf(ctx), { after, limit: n, status: query.status }),
          (last) => ({ at: last.cursor_at, id: last.id }),
          toExperimentOut,
        );
      },
    }),
    /** Creates a draft (variants checked: 2-5, split adds up to 100, the rules exist). Idempotency-Key honoured. */
    defineRoute({
      method: 'post',
      path: '/v1/experiments',
      tag: 'experiments',
      summary: 'Create an experiment (draft)',
      auth: WRITE,
      idempotent: true,
      body: ExperimentIn,
      responses: { 201: { description: 'created', schema: ExperimentOut } },
      async handle(ctx, { body }) {
        const row = await service.create(tenantOf(ctx), fields(body));
        ctx.status = 201;
        ctx.body = toExperimentOut(row);
      },
    }),
    /** Read-only: one experiment. */
    defineRoute({
      method: 'get',
      path: '/v1/experiments/{experiment_id}',
      tag: 'experiments',
      summary: 'Get an experiment',
      auth: READ,
      params: ExperimentParams,
      responses: { 200: { description: 'the experiment', schema: ExperimentOut } },
      async handle(ctx, { params }) {
        const row = await repo.find(tenantOf(ctx), params.experiment_id);
        if (!row) throw notFound('experiment');
        ctx.body = toExperimentOut(row);
      },
    }),
    /** Replaces a draft (409 experiment_not_draft once started); naturally idempotent. */
    defineRoute({
      method: 'put',
      path: '/v1/experiments/{experiment_id}',
      tag: 'experiments',
      summary: 'Replace a draft experiment',
      auth: WRITE,
      params: ExperimentParams,
      body: ExperimentIn,
      responses: { 200: { description: 'the experiment', schema: ExperimentOut } },
      async handle(ctx, { params, body }) {
        ctx.body = toExperimentOut(await service.replace(tenantOf(ctx), params.experiment_id, fields(body)));
      },
    }),
    /** Deletes a draft or stopped experiment (409 experiment_running while it runs); its search log rows stay. */
    defineRoute({
      method: 'delete',
      path: '/v1/experiments/{experiment_id}',
      tag: 'experiments',
      summary: 'Delete an experiment',
      auth: WRITE,
      params: ExperimentParams,
      responses: { 200: { description: 'deleted', schema: Deleted } },
      async handle(ctx, { params }) {
        await service.remove(tenantOf(ctx), params.experiment_id);
        ctx.body = { deleted: true, id: params.experiment_id };
      },
    }),
    /** draft or stopped -> running (409 experiment_already_running when another runs); every API process assigns sessions at once; repeating is a no-op. */
    one('start', 'Start an experiment'),
    /** running -> stopped; searches leave the experiment at once; repeating is a no-op. */
    one('stop', 'Stop an experiment'),
    /** Read-only: per-variant rates from events attributed by search_id, z-tests against the control, the decision. */
    defineRoute({
      method: 'get',
      path: '/v1/experiments/{experiment_id}/results',
      tag: 'experiments',
      summary: 'Results of an experiment',
      auth: READ,
      params: ExperimentParams,
      responses: { 200: { description: 'results per variant', schema: ExperimentResults } },
      async handle(ctx, { params }) {
        ctx.body = await service.results(tenantOf(ctx), params.experiment_id);
      },
    }),
  ];
}
