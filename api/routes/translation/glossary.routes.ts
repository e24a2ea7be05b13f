import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError, notFound } from '../../../shared/platform/errors.js';
import { cursorPage, timeIdCursor } from '../../../shared/platform/cursor.js';
import type { GlossaryRow } from '../../../shared/translation/index.js';
import type { GlossaryTermInput } from '../../../shared/translation/translation.schema.js';
import { Deleted, page } from '../../http/schemas.js';
import { GlossaryTermIn, GlossaryTermOut, ListGlossary, TermParams } from './glossary.schema.js';

const READ = { scope: 'translations:read' as const };
const WRITE = { scope: 'translations:write' as const };

export function toTermOut(r: GlossaryRow) {
  return {
    id: r.id,
    source_locale: r.source_locale,
    target_locale: r.target_locale,
    source_term: r.source_term,
    target_term: r.target_term,
    do_not_translate: r.do_not_translate,
    case_sensitive: r.case_sensitive,
    note: r.note,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/** A term either stays as written or names its target; and it translates between two languages. */
function checkTerm(t: GlossaryTermInput): void {
  const details = [];
  if (!t.do_not_translate && !t.target_term)
    details.push({ in: 'body', field: 'target_term', code: 'required', message: 'a term that is translated needs its target_term (or set do_not_translate)' });
  if (t.source_locale === t.target_locale)
    details.push({ in: 'body', field: 'target_locale', code: 'invalid_value', message: 'target_locale must differ from source_locale' });
  if (details.length) throw new AppError('validation_failed', 400, `invalid body: ${details[0].field}: ${details[0].message}`, details);
}

/** The translation glossary (spec 4.3): terms kept verbatim or forced to a target in every machine translation. */
export function glossaryRoutes(deps: Deps): RouteSpec[] {
  const repo = deps.repos.glossary;
  return [
    /** Read-only: the tenant's terms, oldest first. */
    defineRoute({
      method: 'get',
      path: '/v1/translate/glossary',
      tag: 'translation',
      summary: 'List glossary terms (cursor pages, oldest first)',
      auth: READ,
      query: ListGlossary,
      responses: { 200: { description: 'page of terms', schema: page(GlossaryTermOut) } },
      async handle(ctx, { query }) {
        const tenantId = ctx.state.principal.tenantId;
        const after = timeIdCursor.decode(query.cursor);
        const [page, total] = await Promise.all([
          cursorPage(
            timeIdCursor,
            query.limit,
            (n) => repo.list(tenantId, { after, limit: n }),
            (last) => ({ at: last.created_at.toISOString(), id: last.id }),
            toTermOut,
          ),
          repo.count(tenantId),
        ]);
        ctx.body = { ...page, total };
      },
    }),
    /** Creates a term; 409 glossary_duplicate for the same source term and locale pair, 409 glossary_full past the cap. Applies to translations made from now on. */
    defineRoute({
      method: 'post',
      path: '/v1/translate/glossary',
      tag: 'translation',
      summary: 'Create a glossary term',
      auth: WRITE,
      idempotent: true,
      body: GlossaryTermIn,
      responses: { 201: { description: 'created', schema: GlossaryTermOut } },
      async handle(ctx, { body }) {
        checkTerm(body);
        ctx.status = 201;
        ctx.body = toTermOut(await repo.create(ctx.state.principal.tenantId, body));
      },
    }),
    /** Replaces every field of a term (omitted ones take defaults); naturally idempotent. */
    defineRoute({
      method: 'put',
      path: '/v1/translate/glossary/{term_id}',
      tag: 'translation',
      summary: 'Replace a glossary term',
      auth: WRITE,
      params: TermParams,
      body: GlossaryTermIn,
      responses: { 200: { description: 'the term as stored', schema: GlossaryTermOut } },
      async handle(ctx, { params, body }) {
        checkTerm(body);
        const row = await repo.replace(ctx.state.principal.tenantId, params.term_id, body);
        if (!row) throw notFound('glossary term');
        ctx.body = toTermOut(row);
      },
    }),
    /** Deletes a term; deleting again is a 404. */
    defineRoute({
      method: 'delete',
      path: '/v1/translate/glossary/{term_id}',
      tag: 'translation',
      summary: 'Delete a glossary term',
      auth: WRITE,
      params: TermParams,
      responses: { 200: { description: 'deleted', schema: Deleted } },
      async handle(ctx, { params }) {
        if (!(await repo.remove(ctx.state.principal.tenantId, params.term_id))) throw notFound('glossary term');
        ctx.body = { deleted: true, id: params.term_id };
      },
    }),
  ];
}
