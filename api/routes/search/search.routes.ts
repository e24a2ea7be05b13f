import type { Context } from 'koa';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError, type FieldError } from '../../../shared/platform/errors.js';
import type { SearchInput } from '../../../shared/search/search-service.js';
import type { Principal } from '../../../shared/access/authenticator.js';
import { filtersFromQuery, withOwnProto } from './get-filters.js';
import { FilterValueIn, SearchBody, SearchQuery, SearchQueryDoc, SearchResponse } from './search.schema.js';
import type { FilterValue } from '../../../shared/engines/lexical/port.js';

const SEARCH = { scope: 'search' as const };
const USAGE_HEADER_DOC =
  'results; header `X-Service-Usage: searches=<billed searches this month>; limit=<searches_limit, unlimited, or unknown>; billed=<0 or 1>; period=<YYYY-MM>`. ' +
  "A free plan past its limit answers 402 `search_quota_exceeded` (fall back to the store's own search). " +
  '`limit=unknown`: the plan could not be read, the search was served and counted without a quota check.';
const SEARCH_HEADERS = {
  'X-Service-Usage':
    'searches=<billed searches this month>; limit=<searches_limit, unlimited, or unknown (plan unreadable)>; billed=<0 or 1>; period=<YYYY-MM>',
  'X-Search-Cache': '`hit` (answered from the result cache) or `miss`',
};
const KNOWN_GET = new Set(['q', 'lang', 'page', 'per_page', 'sort', 'facets', 'ai', 'session', 'device', 'debug']);

/** Shopper-facing search (spec 4.6); public keys allowed from their origins. */
export function searchRoutes(deps: Deps): RouteSpec[] {
  const service = deps.search;

  async function run(ctx: Context, input: SearchInput) {
    const p: Principal = ctx.state.principal;
    if (input.debug && p.kind === 'public') throw new AppError('debug_not_allowed', 403, 'debug needs a secret key or a dashboard session');
    if (p.kind !== 'session') input.override = null;
    // Billed: page 1 only (spec 4.6 rule 1). A free plan past its searches_limit answers 402 search_quota_exceeded;
    // a plan that cannot be read lets the search through (limit=unknown in the header).
    const billed = input.page === 1 ? 1 : 0;
    await deps.meter.admit(p.tenantId, billed);
    const { body, text } = await service.search(p.tenantId, input);
    ctx.set('X-Service-Usage', await deps.meter.record(p.tenantId, billed));
    // hit: answered from the result cache (or by a run another request had started), no engine work of its own.
    ctx.set('X-Search-Cache', text ? 'hit' : 'miss');
    ctx.type = 'application/json';
    ctx.body = text ?? body;
  }

  return [
    /** Search with filters in the query string. Bills page 1; logs the search off the request path. */
    defineRoute({
      method: 'get',
      path: '/v1/search',
      tag: 'search',
      summary: 'Search products',
      auth: SEARCH,
      query: SearchQuery,
      docQuery: SearchQueryDoc,
      responses: { 200: { description: USAGE_HEADER_DOC, schema: SearchResponse, headers: SEARCH_HEADERS } },
      async handle(ctx, { query }) {
        const extra = Object.fromEntries(Object.entries(query).filter(([k]) => !KNOWN_GET.has(k)));
        await run(ctx, {
          q: query.q,
          lang: query.lang,
          page: query.page,
          perPage: query.per_page,
          filters: filtersFromQuery(extra),
          sort: query.sort ?? null,
          // facets= is a list of no names, as facets=, is and POST's []; absent, the default facets.
          facets:
            query.facets != null
              ? query.facets
                  .split(',')
                  .map((f) => f.trim())
                  .filter(Boolean)
              : null,
          session: query.session ?? null,
          debug: query.debug === 'true',
          override: null,
          ai: query.ai,
        });
      },
    }),
    /** Search with a JSON body (SearchRequest). Bills page 1; logs the search off the request path. */
    defineRoute({
      method: 'post',
      path: '/v1/search',
      tag: 'search',
      summary: 'Search products (JSON body)',
      auth: SEARCH,
      body: SearchBody,
      responses: { 200: { description: USAGE_HEADER_DOC, schema: SearchResponse, headers: SEARCH_HEADERS } },
      async handle(ctx, { body }) {
        try {
          await run(ctx, {
            q: body.q,
            lang: body.lang,
            page: body.page,
            perPage: body.per_page,
            filters: withOwnProto(body.filters, (ctx.request as { body?: unknown }).body, protoFilter) ?? {},
            sort: body.sort ?? null,
            facets: body.facets ?? null,
            session: body.session ?? null,
            debug: body.debug,
            override: body.config_override ?? null,
            ai: body.ai,
          });
        } catch (e) {
          throw atBody(e);
        }
      },
    }),
  ];
}

/** The value of a body's `filters.__proto__`, checked as any filter value is. */
function protoFilter(value: unknown): FilterValue {
  const result = FilterValueIn.safeParse(value);
  if (result.success) return result.data;
  const field = 'filters.__proto__';
  throw new AppError('validation_failed', 400, `invalid body: ${field}: not a filter value`, [
    { in: 'body', field, code: 'invalid_filter', message: 'not a filter value' },
  ]);
}

/**
 * The search's own checks (filters, facets, lang) name GET's query parameters (`filter[color]`);
 * a POST's error names its body's fields instead (`filters.color`), in the details and the message.
 */
function atBody(e: unknown): unknown {
  if (!(e instanceof AppError) || !Array.isArray(e.details)) return e;
  let message = e.message;
  const details = e.details.map((d: FieldError) => {
    if (d.in !== 'query') return d;
    const name = /^filter\[(.*)\]$/.exec(d.field)?.[1];
    const field = name === undefined ? d.field : `filters.${name}`;
    message = message.replace(`${d.field}:`, `${field}:`);
    return { ...d, in: 'body', field };
  });
  return new AppError(e.code, e.status, message, details, e.headers);
}
