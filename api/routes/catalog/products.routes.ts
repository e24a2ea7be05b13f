import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError, notFound } from '../../../shared/platform/errors.js';
import { cursorPage, idCursor } from '../../../shared/platform/cursor.js';
import type { ProductWithState } from '../../../shared/catalog/products.repo.js';
import { publicProduct } from '../../../shared/catalog/canonical.js';
import { applyBatch, batchRequestText, MAX_BATCH_ITEMS, queueIndexing } from '../../../shared/catalog/batch.js';
import { Deleted, page, toJobOut } from '../../http/schemas.js';
import { BatchBody, BatchBodyDoc, ListProducts, ProductBatchResult, ProductOutBody, ProductParams } from './products.schema.js';

const READ = { scope: 'catalog:read' as const };
const WRITE = { scope: 'catalog:write' as const };

export function toProductOut(row: ProductWithState) {
  return {
    id: row.id,
    product: publicProduct(row.data),
    content_hash: row.content_hash,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    indexed_at: row.indexed_at ? row.indexed_at.toISOString() : null,
  };
}

/** Catalog products (spec 4.5). */
export function productRoutes(deps: Deps): RouteSpec[] {
  const products = deps.repos.products;
  return [
    /**
     * Stores upserts/deletes in one transaction and queues indexing; per-item errors inside a 200; an expired sync's batch is 410,
     * unwritten. A full sync's completion deletes the unsent products itself in a store of up to 10,000 products, else a `sync`
     * job does (`sync_job`). Idempotency-Key honoured.
     */
    defineRoute({
      method: 'post',
      path: '/v1/products/batch',
      tag: 'catalog',
      summary: 'Batch upsert and delete products',
      auth: WRITE,
      idempotent: true,
      // The items' canonical forms, made once for the request hash and the write.
      requestText: ({ body }) => batchRequestText(body),
      itemFields: ['upsert', 'delete'],
      body: BatchBody,
      docBody: BatchBodyDoc,
      responses: {
        200: {
          description:
            'counts and per-item errors. The completing batch of a full sync (replace_all, sync_complete) deletes the products the sync never sent ' +
            '(older than its first batch) itself in a store of up to 10,000 products (`deleted` counts them); in a larger store it answers at once ' +
            'with `sync_job`, the `sync` job that deletes them in pages (poll GET /v1/jobs/{id}; result.deleted), and `deleted` counts only its own deletes',
          schema: ProductBatchResult,
        },
        409: {
          description:
            '`sync_completed`: the full sync named by sync_id completed under 15 minutes ago and this batch does not complete it (a completing batch sent again is answered as a plain batch: nothing deleted); nothing was written; send the next full sync under a new sync_id',
        },
        410: {
          description:
            '`sync_expired`: the full sync named by sync_id had no batch for SYNC_IDLE_DAYS (7) and expired; nothing was written or deleted: send the whole sync again under a new sync_id',
        },
      },
      async handle(ctx, { body }) {
        const items = (body.upsert?.length ?? 0) + (body.delete?.length ?? 0);
        if (items > MAX_BATCH_ITEMS) {
          throw new AppError('batch_too_large', 400, `upsert and delete together hold at most ${MAX_BATCH_ITEMS} items (got ${items})`, [
            { in: 'body', field: 'upsert', code: 'too_long', message: `at most ${MAX_BATCH_ITEMS} items in upsert + delete` },
          ]);
        }
        if (body.replace_all && !body.sync_id && !body.sync_complete) {
          throw new AppError(
            'validation_failed',
            400,
            'replace_all needs a sync_id (several batches) or sync_complete: true (this batch is the whole catalog)',
            [{ in: 'body', field: 'sync_id', code: 'required', message: 'required with replace_all unless sync_complete is true' }],
          );
        }
        const { sync_job, ...result } = await applyBatch(deps, ctx.state.principal.tenantId, body);
        ctx.body = sync_job ? { ...result, sync_job: toJobOut(sync_job) } : result;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/products',
      tag: 'catalog',
      summary: 'List products by id (cursor pages)',
      auth: READ,
      query: ListProducts,
      responses: { 200: { description: 'page of products', schema: page(ProductOutBody) } },
      async handle(ctx, { query }) {
        const after = idCursor.decode(query.cursor);
        ctx.body = await cursorPage(
          idCursor,
          query.limit,
          (n) => products.list(ctx.state.principal.tenantId, { after, limit: n, q: query.q }),
          (last) => ({ after: last.id }),
          toProductOut,
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/products/{product_id}',
      tag: 'catalog',
      summary: 'Get a product',
      auth: READ,
      params: ProductParams,
      responses: { 200: { description: 'the product', schema: ProductOutBody } },
      async handle(ctx, { params }) {
        const row = await products.find(ctx.state.principal.tenantId, params.product_id);
        if (!row) throw notFound('product');
        ctx.body = toProductOut(row);
      },
    }),
    /**
     * Deletes a product and removes it from search before answering, then queues its index job as a
     * batch delete does (what derives from the product goes: translation items, vectors). Idempotency-Key honoured.
     */
    defineRoute({
      method: 'delete',
      path: '/v1/products/{product_id}',
      tag: 'catalog',
      summary: 'Delete a product',
      auth: WRITE,
      idempotent: true,
      params: ProductParams,
      responses: { 200: { description: 'deleted', schema: Deleted } },
      async handle(ctx, { params }) {
        const tenantId = ctx.state.principal.tenantId;
        const removed = await products.remove(tenantId, params.product_id);
        // Removed from search even when the row is already gone: the retry of a delete cut off
        // after its commit (503) must not leave the product searchable for ever.
        await deps.engine.remove(tenantId, [params.product_id]);
        await deps.vectors.remove(tenantId, [params.product_id]);
        // Like a batch's deletes, and for the same retry: the index job's hooks drop what derives from the product.
        await queueIndexing(deps, tenantId, [], [params.product_id]);
        if (!removed) throw notFound('product');
        await deps.notices.publish('index', tenantId);
        await deps.notices.publish('vectors', tenantId);
        ctx.body = { deleted: true, id: params.product_id };
      },
    }),
  ];
}
