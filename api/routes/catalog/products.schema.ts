import { z } from 'zod';
import { Cursor, Limit, Timestamp } from '../../http/schemas.js';

const Text = (max: number) => z.string().max(max);
const LangMap = z.record(z.string().regex(/^[a-z]{2}(-[A-Za-z]{2})?$/, 'language keys are like "en" or "ar"'), z.string().max(20_000));
const Money = z.union([
  z.number().finite().min(0),
  z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, 'a non-negative decimal such as "19.99"'),
]);

export const CategoryRef = z.strictObject({
  id: z.string().min(1).max(128),
  path: z.array(LangMap).min(1).max(10),
});

const AttributeValue = z.union([z.string().max(1000), z.number().finite(), z.boolean(), z.array(z.string().max(1000)).max(100)]);

/** One product in a batch upsert (spec 2.6 ProductIn); validated item by item. */
export const ProductIn = z.strictObject({
  id: z.string().min(1).max(128),
  name: LangMap.refine((m) => Object.values(m).some((v) => v.trim().length > 0), 'name needs at least one non-empty language'),
  description: LangMap.optional(),
  brand: Text(200).nullish(),
  model: Text(200).nullish(),
  sku: Text(200).nullish(),
  gtin: Text(50).nullish(),
  url: Text(2048).nullish(),
  image_url: Text(2048).nullish(),
  price: Money,
  sale_price: Money.nullish(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as "USD"'),
  in_stock: z.boolean().default(true),
  stock_qty: z.number().int().min(0).nullish(),
  categories: z.array(CategoryRef).max(50).optional(),
  attributes: z.record(z.string().min(1).max(200), AttributeValue).optional(),
  tags: z.array(z.string().max(200)).max(100).optional(),
  popularity: z.number().finite().min(0).nullish(),
  margin: z.number().finite().nullish(),
  visible: z.boolean().default(true),
  updated_at: Timestamp.nullish(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type ProductInput = z.output<typeof ProductIn>;

export const BatchBody = z.strictObject({
  upsert: z.array(z.unknown()).optional(),
  delete: z.array(z.unknown()).optional(),
  replace_all: z.boolean().default(false),
  sync_id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/).nullish(),
  sync_complete: z.boolean().default(false),
});

export const ItemError = z.object({ id: z.string().nullable(), index: z.number().int(), code: z.string(), message: z.string() });

export const ProductBatchResult = z.object({
  upserted: z.number().int(),
  unchanged: z.number().int(),
  deleted: z.number().int(),
  errors: z.array(ItemError),
  visible_within_s: z.number(),
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
