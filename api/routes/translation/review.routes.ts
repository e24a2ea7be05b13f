import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError } from '../../../shared/platform/errors.js';
import { decodeCursor, encodeCursor } from '../../../shared/platform/cursor.js';
import { reviewService } from '../../../shared/translation/index.js';
import { page } from '../../http/schemas.js';
import { BulkBody, BulkReviewResult, ReviewBody, ReviewParams, ReviewQuery, toItemOut, TranslationItem } from './translation.schema.js';

const READ = { scope: 'translations:read' as const };
const WRITE = { scope: 'translations:write' as const };

/** The review queue (spec 4.3): list by status, decide one item or many (README "Translation states"). */
export function reviewRoutes(deps: Deps): RouteSpec[] {
  const repo = deps.repos.translationReview;
  const service = reviewService({
    queues: deps.queues, review: repo, items: deps.repos.translationItems, glossary: deps.repos.glossary, products: deps.repos.products,
  });
  return [
    /** Read-only: items in one status (default review), grouped by product. */
    defineRoute({
      method: 'get', path: '/v1/translate/review', tag: 'translation', summary: 'List translation items by status (the review queue)', auth: READ,
      query: ReviewQuery, responses: { 200: { description: 'page of items', schema: page(TranslationItem) } },
      async handle(ctx, { query }) {
        const tenantId = ctx.state.principal.tenantId;
        const after = decodeCursor<{ p: string; id: string }>(query.cursor, ['p', 'id']);
        if (after && (typeof after.p !== 'string' || typeof after.id !== 'string')) {
          throw new AppError('invalid_cursor', 400, 'cursor is not one this API returned', [{ field: 'cursor', code: 'invalid_cursor', message: 'pass back next_cursor unchanged' }]);
        }
        const [rows, total] = await Promise.all([
          repo.list(tenantId, { status: query.status, target: query.target_locale, after, limit: query.limit + 1 }),
          repo.count(tenantId, query.status, query.target_locale),
        ]);
        const data = rows.slice(0, query.limit);
        const last = data[data.length - 1];
        ctx.body = { data: data.map(toItemOut), next_cursor: rows.length > query.limit ? encodeCursor({ p: last.product_id, id: last.id }) : null, total };
      },
    }),
    /** Approves or rejects many items in one transaction; items the action does not apply to are skipped and listed. Re-indexes the products. */
    defineRoute({
      method: 'post', path: '/v1/translate/review/bulk', tag: 'translation', summary: 'Approve or reject many translations', auth: WRITE,
      body: BulkBody, responses: { 200: { description: 'counts', schema: BulkReviewResult } },
      async handle(ctx, { body }) {
        ctx.body = await service.bulk(ctx.state.principal.tenantId, body.ids, body.action);
      },
    }),
    /**
     * approve / reject / edit (text required; the item becomes human_edited and is never
     * overwritten by the machine); 409 invalid_transition when the item's state does not allow it.
     * Re-indexes the product.
     */
    defineRoute({
      method: 'post', path: '/v1/translate/review/{translation_id}', tag: 'translation', summary: 'Approve, reject or edit a translation', auth: WRITE,
      params: ReviewParams, body: ReviewBody, responses: { 200: { description: 'the item after the decision', schema: TranslationItem } },
      async handle(ctx, { params, body }) {
        ctx.body = toItemOut(await service.decide(ctx.state.principal.tenantId, params.translation_id, body.action, body.text));
      },
    }),
  ];
}
