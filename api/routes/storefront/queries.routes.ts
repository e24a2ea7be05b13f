import type { Context } from 'koa';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { ALGOLIA_PREFIX, type QueryOutcome } from '../../../shared/storefront/index.js';
import { algoliaAuth, algoliaErrorBody, checkApplication } from './algolia.js';
import {
  AlgoliaQuery,
  AlgoliaResult,
  FacetParams,
  FacetQueryBody,
  FacetValuesResult,
  IndexParam,
  QueriesBody,
  QueriesResponse,
  SingleQueryBody,
} from './queries.schema.js';

const USAGE = {
  'X-Service-Usage':
    'as on /v1/search: searches=<billed this month>; limit=<n, unlimited, or unknown (plan unreadable)>; billed=<searches billed by this call>; period=<YYYY-MM>',
};

/** The Algolia search protocol (algoliasearch lite, InstantSearch, Autocomplete) under ALGOLIA_PREFIX. */
export function queryRoutes(deps: Deps): RouteSpec[] {
  /** Refuses a call over the plan's searches before any of it runs (402, as /v1/search does), given the queries billing.ts bills. */
  const admit = (tenantId: string) => (billed: number) => deps.meter.admit(tenantId, billed);

  /** Counts what billing.ts bills (one billed search per shopper search) and reports it like /v1/search does. */
  async function bill(ctx: Context, tenantId: string, outcomes: QueryOutcome[]) {
    const billed = outcomes.filter((o) => o.billed).length;
    ctx.set('X-Service-Usage', await deps.meter.record(tenantId, billed));
  }

  return [
    /** Multi-query search: each request runs the /v1/search path (or suggest for suggestions indices); logs shopper searches, bills per billing.ts. */
    defineRoute({
      method: 'post',
      path: `${ALGOLIA_PREFIX}/1/indexes/*/queries`,
      tag: 'storefront',
      summary: 'Algolia protocol: multi-query search (InstantSearch, Autocomplete)',
      auth: algoliaAuth('search'),
      errorBody: algoliaErrorBody,
      query: AlgoliaQuery,
      body: QueriesBody,
      responses: { 200: { description: 'one result per request, in order', schema: QueriesResponse, headers: USAGE } },
      async handle(ctx, { body }) {
        const tenantId = checkApplication(ctx);
        const outcomes = await deps.storefront.multi(tenantId, body.requests, admit(tenantId));
        await bill(ctx, tenantId, outcomes);
        ctx.body = { results: outcomes.map((o) => o.result) };
      },
    }),
    /** Single-index search; same rules as the multi-query. */
    defineRoute({
      method: 'post',
      path: `${ALGOLIA_PREFIX}/1/indexes/{index}/query`,
      tag: 'storefront',
      summary: 'Algolia protocol: search one index',
      auth: algoliaAuth('search'),
      errorBody: algoliaErrorBody,
      params: IndexParam,
      query: AlgoliaQuery,
      body: SingleQueryBody,
      responses: { 200: { description: 'the result', schema: AlgoliaResult, headers: USAGE } },
      async handle(ctx, { params, body }) {
        const tenantId = checkApplication(ctx);
        const outcome = await deps.storefront.single(tenantId, params.index, body, admit(tenantId));
        await bill(ctx, tenantId, [outcome]);
        ctx.body = outcome.result;
      },
    }),
    /** searchForFacetValues on one facet (algoliasearch v4, v5 searchForFacetValues): a `type: 'facet'` request of the multi-query; never billed, never logged. */
    defineRoute({
      method: 'post',
      path: `${ALGOLIA_PREFIX}/1/indexes/{index}/facets/{facet}/query`,
      tag: 'storefront',
      summary: 'Algolia protocol: search for facet values (searchable refinementList)',
      auth: algoliaAuth('search'),
      errorBody: algoliaErrorBody,
      params: FacetParams,
      query: AlgoliaQuery,
      body: FacetQueryBody,
      responses: { 200: { description: "the facet's values with a word starting with facetQuery", schema: FacetValuesResult, headers: USAGE } },
      async handle(ctx, { params, body }) {
        const tenantId = checkApplication(ctx);
        const outcome = await deps.storefront.facetValues(tenantId, params.index, params.facet, body, admit(tenantId));
        await bill(ctx, tenantId, [outcome]);
        ctx.body = outcome.result;
      },
    }),
  ];
}
