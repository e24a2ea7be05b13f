import type { Context } from 'koa';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { notFound } from '../../../shared/platform/errors.js';
import { cursorPage, timeIdCursor } from '../../../shared/platform/cursor.js';
import { normalizeText } from '../../../shared/text/normalize.js';
import type { SynonymRow, SynonymScope } from '../../../shared/synonyms/synonyms.repo.js';
import { synonymService } from '../../../shared/synonyms/service.js';
import { Deleted, page } from '../../http/schemas.js';
import { importExportRoutes } from './synonym-files.routes.js';
import { CopyGlobal, ListSynonyms, SynonymIn, SynonymOut, SynonymParams } from './synonyms.schema.js';

const READ = { scope: 'synonyms:read' as const };
const WRITE = { scope: 'synonyms:write' as const };

export function toSynonymOut(row: SynonymRow) {
  return {
    id: row.id,
    kind: row.kind,
    terms: row.terms,
    input: row.input,
    outputs: row.outputs,
    conditions: row.conditions,
    locale: row.locale,
    set_key: row.set_key,
    enabled: row.enabled,
    source: row.source,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Synonym rules (spec 4.2): CRUD, import/export, and the read-only global rules a tenant can copy. */
export function synonymRoutes(deps: Deps): RouteSpec[] {
  const repo = deps.repos.synonyms;
  const service = synonymService(deps);
  const tenantOf = (ctx: Context): string => ctx.state.principal.tenantId;

  /** One page of a scope's rules, oldest first; the cursor holds the last row's (created_at, id). */
  async function listPage(scope: SynonymScope, query: { cursor?: string | null; limit: number; q?: string | null; set_key?: string | null }) {
    const after = timeIdCursor.decode(query.cursor);
    const q = query.q ? normalizeText(query.q) : '';
    return cursorPage(
      timeIdCursor,
      query.limit,
      (n) => repo.list(scope, { after, limit: n, q: q || undefined, setKey: query.set_key }),
      (last) => ({ at: last.cursor_at, id: last.id }),
      toSynonymOut,
    );
  }

  return [
    // Fixed paths first: /v1/synonyms/export and /v1/synonyms/global must not be read as a synonym id.
    ...importExportRoutes(service),
    /** Read-only: the platform rules every tenant gets unless a search sets global_synonyms: false. */
    defineRoute({
      method: 'get',
      path: '/v1/synonyms/global',
      tag: 'synonyms',
      summary: "List the platform's global synonym rules (read-only)",
      auth: READ,
      query: ListSynonyms,
      responses: { 200: { description: 'page of global rules; they apply unless a search sets global_synonyms: false', schema: page(SynonymOut) } },
      async handle(ctx, { query }) {
        ctx.body = await listPage(null, query);
      },
    }),
    /** Creates the tenant's own copy of a global rule (source global_copy); 409 synonym_duplicate if the set holds it already. Idempotency-Key honoured; announces the change. */
    defineRoute({
      method: 'post',
      path: '/v1/synonyms/global/{synonym_id}/copy',
      tag: 'synonyms',
      summary: "Copy a global rule into the tenant's rules",
      auth: WRITE,
      idempotent: true,
      params: SynonymParams,
      body: CopyGlobal,
      responses: { 201: { description: "the tenant's copy", schema: SynonymOut } },
      async handle(ctx, { params, body }) {
        const row = await service.copyGlobal(tenantOf(ctx), params.synonym_id, body);
        ctx.status = 201;
        ctx.body = toSynonymOut(row);
      },
    }),
    /** Read-only: the tenant's rules, oldest first. */
    defineRoute({
      method: 'get',
      path: '/v1/synonyms',
      tag: 'synonyms',
      summary: 'List synonym rules (cursor pages, oldest first)',
      auth: READ,
      query: ListSynonyms,
      responses: { 200: { description: 'page of rules', schema: page(SynonymOut) } },
      async handle(ctx, { query }) {
        ctx.body = await listPage(tenantOf(ctx), query);
      },
    }),
    /** Creates a rule (source manual); 409 synonym_duplicate names the existing rule. Idempotency-Key honoured; announces the change. */
    defineRoute({
      method: 'post',
      path: '/v1/synonyms',
      tag: 'synonyms',
      summary: 'Create a synonym rule',
      auth: WRITE,
      idempotent: true,
      body: SynonymIn,
      responses: { 201: { description: 'created', schema: SynonymOut } },
      async handle(ctx, { body }) {
        const row = await service.create(tenantOf(ctx), body);
        ctx.status = 201;
        ctx.body = toSynonymOut(row);
      },
    }),
    /** Read-only: one of the tenant's rules (another tenant's or a global id is 404). */
    defineRoute({
      method: 'get',
      path: '/v1/synonyms/{synonym_id}',
      tag: 'synonyms',
      summary: 'Get a synonym rule',
      auth: READ,
      params: SynonymParams,
      responses: { 200: { description: 'the rule', schema: SynonymOut } },
      async handle(ctx, { params }) {
        const row = await repo.find(tenantOf(ctx), params.synonym_id);
        if (!row) throw notFound('synonym');
        ctx.body = toSynonymOut(row);
      },
    }),
    /** Replaces every field of a rule (omitted ones take defaults; source stays); naturally idempotent; announces the change. */
    defineRoute({
      method: 'put',
      path: '/v1/synonyms/{synonym_id}',
      tag: 'synonyms',
      summary: 'Replace a synonym rule',
      auth: WRITE,
      params: SynonymParams,
      body: SynonymIn,
      responses: { 200: { description: 'the rule as stored', schema: SynonymOut } },
      async handle(ctx, { params, body }) {
        ctx.body = toSynonymOut(await service.replace(tenantOf(ctx), params.synonym_id, body));
      },
    }),
    /** Deletes a rule and announces the change; deleting again is a 404. */
    defineRoute({
      method: 'delete',
      path: '/v1/synonyms/{synonym_id}',
      tag: 'synonyms',
      summary: 'Delete a synonym rule',
      auth: WRITE,
      params: SynonymParams,
      responses: { 200: { description: 'deleted', schema: Deleted } },
      async handle(ctx, { params }) {
        if (!(await service.remove(tenantOf(ctx), params.synonym_id))) throw notFound('synonym');
        ctx.body = { deleted: true, id: params.synonym_id };
      },
    }),
  ];
}
