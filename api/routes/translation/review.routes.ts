import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { z } from 'zod';
import { cursorCodec, cursorPage, CursorId, MAX_CURSOR_CHARS, prefixThatFits, type CursorCodec } from '../../../shared/platform/cursor.js';
import { reviewService, type ReviewAfter } from '../../../shared/translation/index.js';
import { page } from '../../http/schemas.js';
import { BulkBody, BulkReviewResult, ReviewBody, ReviewParams, ReviewQuery, toItemOut, TranslationItem } from './translation.schema.js';

const READ = { scope: 'translations:read' as const };
const WRITE = { scope: 'translations:write' as const };
/**
 * The review list is ordered by (product, id). A product id too long for the cursor (spec 8: max 200
 * characters) is carried as its prefix `pp`; the list finds the product again from the item.
 */
const reviewCodec = cursorCodec(z.union([z.strictObject({ p: CursorId, id: CursorId }), z.strictObject({ pp: CursorId, id: CursorId })]));
const reviewCursor: CursorCodec<ReviewAfter> = {
  decode: reviewCodec.decode,
  encode(value) {
    const plain = reviewCodec.encode(value);
    if (plain.length <= MAX_CURSOR_CHARS || !('p' in value)) return plain;
    return reviewCodec.encode({ pp: prefixThatFits(value.p, (pp) => reviewCodec.encode({ pp, id: value.id })), id: value.id });
  },
};

/** The review queue (spec 4.3): list by status, decide one item or many (README "Translation states"). */
export function reviewRoutes(deps: Deps): RouteSpec[] {
  const repo = deps.repos.translationReview;
  const service = reviewService({
    queues: deps.queues,
    logger: deps.logger,
    review: repo,
    items: deps.repos.translationItems,
    glossary: deps.repos.glossary,
    products: deps.repos.products,
  });
  return [
    /** Read-only: items in one status (default review), grouped by product. */
    defineRoute({
      method: 'get',
      path: '/v1/translate/review',
      tag: 'translation',
      summary: 'List translation items by status (the review queue)',
      auth: READ,
      query: ReviewQuery,
      responses: { 200: { description: 'page of items', schema: page(TranslationItem) } },
      async handle(ctx, { query }) {
        const tenantId = ctx.state.principal.tenantId;
        const after = reviewCursor.decode(query.cursor);
        const [page, total] = await Promise.all([
          cursorPage(
            reviewCursor,
            query.limit,
            (n) => repo.list(tenantId, { status: query.status, target: query.target_locale, after, limit: n }),
            (last) => ({ p: last.product_id, id: last.id }),
            toItemOut,
          ),
          repo.count(tenantId, query.status, query.target_locale),
        ]);
        ctx.body = { ...page, total };
      },
    }),
    /** Approves or rejects many items in one transaction; items the action does not apply to are skipped and listed. Re-indexes the products. */
    defineRoute({
      method: 'post',
      path: '/v1/translate/review/bulk',
      tag: 'translation',
      summary: 'Approve or reject many translations',
      auth: WRITE,
      body: BulkBody,
      responses: { 200: { description: 'counts', schema: BulkReviewResult } },
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
      method: 'post',
      path: '/v1/translate/review/{translation_id}',
      tag: 'translation',
      summary: 'Approve, reject or edit a translation',
      auth: WRITE,
      params: ReviewParams,
      body: ReviewBody,
      responses: { 200: { description: 'the item after the decision', schema: TranslationItem } },
      async handle(ctx, { params, body }) {
        ctx.body = toItemOut(await service.decide(ctx.state.principal.tenantId, params.translation_id, body.action, body.text));
      },
    }),
  ];
}
