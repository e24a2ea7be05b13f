import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { notFound } from '../../../shared/platform/errors.js';
import { cursorPage, timeIdCursor } from '../../../shared/platform/cursor.js';
import type { SuggestionRow } from '../../../shared/synonyms/suggestions.repo.js';
import { startMining } from '../../../shared/synonyms/start-mining.js';
import { page, toJobOut } from '../../http/schemas.js';
import { DecisionBody, ListSuggestions, MineAccepted, MineBody, SuggestionParams, SynonymSuggestionOut } from './synonym-suggestions.schema.js';

const READ = { scope: 'synonyms:read' as const };
const WRITE = { scope: 'synonyms:write' as const };

export function toSuggestionOut(row: SuggestionRow) {
  return {
    id: row.id,
    kind: row.kind,
    terms: row.terms,
    input: row.input,
    outputs: row.outputs,
    evidence: row.evidence,
    score: row.score,
    status: row.status,
    created_at: row.created_at.toISOString(),
    decided_at: row.decided_at ? row.decided_at.toISOString() : null,
    synonym_id: row.synonym_id,
  };
}

/** Mined synonym suggestions (spec 4.2): list, decide, and start a mining run. Fixed paths: mount before /v1/synonyms/{synonym_id}. */
export function suggestionRoutes(deps: Deps): RouteSpec[] {
  const repo = deps.repos.suggestions;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/synonyms/suggestions',
      tag: 'synonyms',
      summary: 'List synonym suggestions, newest first',
      auth: READ,
      query: ListSuggestions,
      responses: { 200: { description: 'page of suggestions', schema: page(SynonymSuggestionOut) } },
      async handle(ctx, { query }) {
        const tenantId = ctx.state.principal.tenantId;
        const before = timeIdCursor.decode(query.cursor);
        const [page, total] = await Promise.all([
          cursorPage(
            timeIdCursor,
            query.limit,
            (n) => repo.list(tenantId, { status: query.status, before, limit: n }),
            (last) => ({ at: last.cursor_at, id: last.id }),
            toSuggestionOut,
          ),
          repo.count(tenantId, query.status),
        ]);
        ctx.body = { ...page, total };
      },
    }),
    /** Starts (or joins) the tenant's synonym_mining job; poll GET /v1/jobs/{id}. */
    defineRoute({
      method: 'post',
      path: '/v1/synonyms/suggestions/mine',
      tag: 'synonyms',
      summary: 'Mine the search log for synonym suggestions now',
      auth: WRITE,
      body: MineBody,
      responses: { 202: { description: 'the mining job (a running one is joined)', schema: MineAccepted } },
      async handle(ctx, { body }) {
        const { job } = await startMining(deps, ctx.state.principal.tenantId, { days: body.days, minSessions: body.min_sessions }, 'api');
        ctx.status = 202;
        ctx.body = { accepted: true, job: toJobOut(job) };
      },
    }),
    /**
     * approve: adds the rule to the `default` set (source suggested) and announces the change;
     * reject: it is never proposed again. 409 suggestion_decided when already decided.
     */
    defineRoute({
      method: 'post',
      path: '/v1/synonyms/suggestions/{suggestion_id}/decision',
      tag: 'synonyms',
      summary: 'Approve or reject a suggestion',
      auth: WRITE,
      params: SuggestionParams,
      body: DecisionBody,
      responses: { 200: { description: 'the decided suggestion', schema: SynonymSuggestionOut } },
      async handle(ctx, { params, body }) {
        const tenantId = ctx.state.principal.tenantId;
        const row = await repo.decide(tenantId, params.suggestion_id, body.decision);
        if (!row) throw notFound('suggestion');
        if (row.status === 'approved') await deps.notices.publish('synonyms', tenantId);
        ctx.body = toSuggestionOut(row);
      },
    }),
  ];
}
