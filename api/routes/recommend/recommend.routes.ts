import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError } from '../../../shared/platform/errors.js';
import { RecommendQuery, RecommendResponse } from './recommend.schema.js';

const SEARCH = { scope: 'search' as const };
const JSON_TYPE = 'application/json; charset=utf-8';

/** Recommendations (spec 4.6); public keys allowed. */
export function recommendRoutes(deps: Deps): RouteSpec[] {
  return [
    /** Reads only (vectors, signals and card caches in memory); the answer's JSON bytes are made once per held answer; not billed as a search, not logged. */
    defineRoute({
      method: 'get',
      path: '/v1/recommend',
      tag: 'search',
      summary: 'Product recommendations',
      auth: SEARCH,
      query: RecommendQuery,
      responses: { 200: { description: 'recommended products', schema: RecommendResponse } },
      async handle(ctx, { query }) {
        if ((query.type === 'similar' || query.type === 'also_viewed') && !query.product_id) {
          throw new AppError('validation_failed', 400, 'product_id is required for this type', [
            { in: 'query', field: 'product_id', code: 'required', message: `required for ${query.type}` },
          ]);
        }
        const json = await deps.recommender.recommendJson(ctx.state.principal.tenantId, {
          type: query.type,
          productId: query.product_id ?? null,
          categoryId: query.category_id ?? null,
          session: query.session ?? null,
          limit: query.limit,
        });
        // What `ctx.type = 'application/json'` sets, straight to Node (headers are not sent before the body is set).
        ctx.res.setHeader('Content-Type', JSON_TYPE);
        ctx.body = json;
      },
    }),
  ];
}
