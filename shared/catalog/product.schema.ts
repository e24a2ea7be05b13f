import { z } from 'zod';
import { Timestamp } from '../platform/schemas.js';

const Text = (max: number) => z.string().max(max);
const LangMap = z.record(z.string().regex(/^[a-z]{2}(-[A-Za-z]{2})?$/, 'language keys are like "en" or "ar"'), z.string().max(20_000));
const Money = z.union([
  z.number().finite().min(0).lt(1e12, 'at most 12 digits before the point'),
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
