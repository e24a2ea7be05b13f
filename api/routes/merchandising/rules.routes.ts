import type { Context } from 'koa';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { notFound } from '../../../shared/platform/errors.js';
import { cursorPage, timeIdCursor } from '../../../shared/platform/cursor.js';
import { rulesService, toRuleOut } from '../../../shared/merchandising/index.js';
import { BUILTIN_FILTERS } from '../../../shared/search/index.js';
import { filterShapeProblem } from '../../../shared/search/search-checks.js';
import { Deleted, page } from '../../http/schemas.js';
import { ListRules, RuleExport, RuleImportBody, RuleImportResult, RuleIn, RuleOut, RuleParams } from './rules.schema.js';

/** The body as sent, before zod (the service looks there for what the parse drops: a `__proto__` filter). */
const sent = (ctx: Context): unknown => (ctx.request as { body?: unknown }).body;
const sentRules = (ctx: Context): unknown[] => {
  const rules = (sent(ctx) as { rules?: unknown } | undefined)?.rules;
  return Array.isArray(rules) ? rules : [];
};

const READ = { scope: 'rules:read' as const };
const WRITE = { scope: 'rules:write' as const };

/** Merchandising rules: CRUD, JSON export and import (README, Merchandising). */
export function ruleRoutes(deps: Deps): RouteSpec[] {
  const repo = deps.repos.rules;
  const service = rulesService({
    notices: deps.notices,
    repos: deps.repos,
    async knownFilters(tenantId) {
      const ctx = await deps.contexts.get(tenantId);
      return new Set([...BUILTIN_FILTERS, ...(ctx?.facetNames ?? [])]);
    },
    filterShapeProblem,
  });
  const tenantOf = (ctx: Context): string => ctx.state.principal.tenantId;

  return [
    /** Read-only: the tenant's rules, oldest first; the cursor holds the last row's (created_at, id). */
    defineRoute({
      method: 'get',
      path: '/v1/rules',
      tag: 'merchandising',
      summary: 'List merchandising rules (cursor pages, oldest first)',
      auth: READ,
      query: ListRules,
      responses: { 200: { description: 'page of rules', schema: page(RuleOut) } },
      async handle(ctx, { query }) {
        const after = timeIdCursor.decode(query.cursor);
        const enabled = query.enabled === undefined ? null : query.enabled === 'true';
        const listed = await cursorPage(
          timeIdCursor,
          query.limit,
          (n) => repo.list(tenantOf(ctx), { after, limit: n, q: query.q ?? undefined, enabled }),
          (last) => ({ at: last.cursor_at, id: last.id }),
          toRuleOut,
        );
        ctx.body = { ...listed, total: query.cursor || query.q || enabled !== null ? null : await repo.count(tenantOf(ctx)) };
      },
    }),
    /** Read-only: every rule as one JSON document that /v1/rules/import takes back. */
    defineRoute({
      method: 'get',
      path: '/v1/rules/export',
      tag: 'merchandising',
      summary: 'Export every merchandising rule as JSON',
      auth: READ,
      responses: { 200: { description: 'all rules', schema: RuleExport } },
      async handle(ctx) {
        ctx.body = await service.export(tenantOf(ctx));
      },
    }),
    /** All or nothing in one transaction (400 names `rules.<i>.<field>`); upserts by id; announces the change when anything changed. Idempotency-Key honoured. */
    defineRoute({
      method: 'post',
      path: '/v1/rules/import',
      tag: 'merchandising',
      summary: 'Import merchandising rules (merge or replace)',
      auth: WRITE,
      idempotent: true,
      body: RuleImportBody,
      responses: { 200: { description: 'counts', schema: RuleImportResult } },
      async handle(ctx, { body }) {
        ctx.body = await service.import(
          tenantOf(ctx),
          body.rules.map(({ updated_at: _u, ...r }) => r),
          body.mode,
          sentRules(ctx),
        );
      },
    }),
    /** Creates a rule; every API process applies it within a second (rules notice). Idempotency-Key honoured. */
    defineRoute({
      method: 'post',
      path: '/v1/rules',
      tag: 'merchandising',
      summary: 'Create a merchandising rule',
      auth: WRITE,
      idempotent: true,
      body: RuleIn,
      responses: { 201: { description: 'created', schema: RuleOut } },
      async handle(ctx, { body }) {
        const row = await service.create(tenantOf(ctx), body, sent(ctx));
        ctx.status = 201;
        ctx.body = toRuleOut(row);
      },
    }),
    /** Read-only: one rule (another tenant's id is 404). */
    defineRoute({
      method: 'get',
      path: '/v1/rules/{rule_id}',
      tag: 'merchandising',
      summary: 'Get a merchandising rule',
      auth: READ,
      params: RuleParams,
      responses: { 200: { description: 'the rule', schema: RuleOut } },
      async handle(ctx, { params }) {
        const row = await repo.find(tenantOf(ctx), params.rule_id);
        if (!row) throw notFound('rule');
        ctx.body = toRuleOut(row);
      },
    }),
    /** Replaces every field of a rule (omitted ones take defaults); naturally idempotent; announces the change. */
    defineRoute({
      method: 'put',
      path: '/v1/rules/{rule_id}',
      tag: 'merchandising',
      summary: 'Replace a merchandising rule',
      auth: WRITE,
      params: RuleParams,
      body: RuleIn,
      responses: { 200: { description: 'the rule as stored', schema: RuleOut } },
      async handle(ctx, { params, body }) {
        ctx.body = toRuleOut(await service.replace(tenantOf(ctx), params.rule_id, body, sent(ctx)));
      },
    }),
    /** Deletes a rule and announces the change; deleting again is a 404. */
    defineRoute({
      method: 'delete',
      path: '/v1/rules/{rule_id}',
      tag: 'merchandising',
      summary: 'Delete a merchandising rule',
      auth: WRITE,
      params: RuleParams,
      responses: { 200: { description: 'deleted', schema: Deleted } },
      async handle(ctx, { params }) {
        if (!(await service.remove(tenantOf(ctx), params.rule_id))) throw notFound('rule');
        ctx.body = { deleted: true, id: params.rule_id };
      },
    }),
  ];
}
