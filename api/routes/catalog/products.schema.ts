import { z } from 'zod';
import { Cursor, Job, Limit, Timestamp } from '../../http/schemas.js';
import { ProductIn } from '../../../shared/catalog/product.schema.js';
import { MAX_BATCH_ITEMS } from '../../../shared/catalog/batch.js';

export { ProductIn, CategoryRef, type ProductInput } from '../../../shared/catalog/product.schema.js';

export const BatchBody = z.strictObject({
  upsert: z.array(z.unknown()).optional(),
  delete: z.array(z.unknown()).optional(),
  replace_all: z.boolean().default(false),
  sync_id: z
    .string()
    .min(1)
    .max(64)
    // The spec bounds only the length: any printable text (spaces, slashes, any script) names a sync.
    // It only ever reaches SQL as a bound value, JSON (job data and rows, log lines) and the jobs row's
    // dedupe key, never a Redis key or a BullMQ job id; control characters are refused (U+0000 and lone
    // surrogates already are, as invalid_text, on every field).
    .regex(/^[^\p{Cc}]+$/u, 'printable text: no control characters (U+0000-U+001F, U+007F-U+009F)')
    .nullish()
    .describe(
      'any printable text of 1 to 64 characters (control characters refused); groups the batches of one full sync (replace_all); a sync with no batch for SYNC_IDLE_DAYS (7) expires: 410 `sync_expired`; for 15 minutes after a sync completed, its completing batch sent again is a plain batch (nothing deleted) and any other batch answers 409 `sync_completed`',
    ),
  sync_complete: z.boolean().default(false),
});

/**
 * BatchBody as documented: the route takes its items as unknown and checks each one alone (a bad
 * item is an entry of `errors`, not a 400), so the document names what an item is here.
 */
export const BatchBodyDoc = BatchBody.extend({
  upsert: z.array(ProductIn).max(MAX_BATCH_ITEMS).optional().describe(`upsert and delete together hold at most ${MAX_BATCH_ITEMS} items`),
  delete: z.array(z.string().min(1).max(128)).max(MAX_BATCH_ITEMS).optional().describe('product ids'),
});

export const ItemError = z.object({ id: z.string().nullable(), index: z.number().int(), code: z.string(), message: z.string() });

export const ProductBatchResult = z.object({
  upserted: z.number().int(),
  unchanged: z.number().int(),
  deleted: z.number().int(),
  errors: z.array(ItemError),
  visible_within_s: z.number(),
  sync_job: Job.optional().describe(
    "a large store's completing batch of a full sync: the `sync` job deleting the products the sync never sent (poll GET /v1/jobs/{id}; its result's `deleted` counts them). `deleted` above counts only this batch's own deletes. A `sync` job that fails for good is started again by the service (the same job goes back to `queued`, resuming where it stopped) until it succeeds",
  ),
});

/** The stored product as returned (prices as strings, margin never shown). */
export const ProductOutBody = z.object({
  id: z.string(),
  product: z.record(z.string(), z.unknown()),
  content_hash: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  indexed_at: Timestamp.nullable(),
});

export const ListProducts = z.strictObject({
  cursor: Cursor,
  limit: Limit(50, 200),
  q: z.string().max(200).nullish(),
});

export const ProductParams = z.object({ product_id: z.string().min(1).max(128) });
