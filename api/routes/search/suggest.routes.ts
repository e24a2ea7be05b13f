import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { SuggestQuery, SuggestResponse } from './suggest.schema.js';

const SEARCH = { scope: 'search' as const };

/** As-you-type suggestions (spec 4.6); public keys allowed from their origins. */
export function suggestRoutes(deps: Deps): RouteSpec[] {
  return [
    /** As-you-type suggestions; never billed, never calls the AI, not logged. */
    defineRoute({
      method: 'get',
      path: '/v1/suggest',
      tag: 'search',
      summary: 'Suggestions as you type',
      auth: SEARCH,
      query: SuggestQuery,
      responses: { 200: { description: 'suggestions', schema: SuggestResponse } },
      async handle(ctx, { query }) {
        ctx.type = 'application/json';
        ctx.body = await deps.suggest.suggest(ctx.state.principal.tenantId, { q: query.q, limit: query.limit, products: query.products, lang: query.lang });
        // Never billed nor limited; counted (in memory) only for the usage report's suggests_not_billed.
        if (deps.config.usage.metering) deps.usage.count(ctx.state.principal.tenantId, 'suggest');
      },
    }),
  ];
}
