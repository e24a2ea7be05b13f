import { createHash } from 'node:crypto';

/**
 * Plain TypeScript shape of the API's product upsert body (spec 2.6 ProductIn, snake_case JSON),
 * plus the length limits the API enforces and small helpers the catalog mappers use to respect them.
 * The authoritative validator is the zod schema in shared/catalog/product.schema.ts.
 */

/** Language-keyed text, e.g. `{ en: 'Notebooks' }`. */
export type LangText = Record<string, string>;

/** Value of one product attribute. */
export type AttributeValue = string | number | boolean | string[];

/** One category of a product: a stable id plus the labelled path, root first (1..10 levels). */
export interface CategoryRef {
  id: string;
  path: LangText[];
}

/** A product as sent in the `upsert` list of `POST /v1/products/batch`. */
export interface ProductIn {
  id: string;
  name: LangText;
  description?: LangText;
  brand?: string | null;
  model?: string | null;
  sku?: string | null;
  gtin?: string | null;
  url?: string | null;
  image_url?: string | null;
  price: number | string;
  sale_price?: number | string | null;
  currency: string;
  in_stock?: boolean;
  stock_qty?: number | null;
  categories?: CategoryRef[];
  attributes?: Record<string, AttributeValue>;
  tags?: string[];
  popularity?: number | null;
  margin?: number | null;
  visible?: boolean;
  updated_at?: string | null;
  extra?: Record<string, unknown>;
}

/** Limits the API enforces on a ProductIn (lengths in UTF-16 code units, as zod counts them). */
export const LIMITS = {
  id: 128,
  brand: 200,
  model: 200,
  sku: 200,
  gtin: 50,
  url: 2048,
  text: 20_000,
  categoryId: 128,
  categoryLevels: 10,
  categories: 50,
  attributeKey: 200,
  attributeText: 1000,
} as const;

/** Trimmed string cut to `max` chars, or null when not a non-empty string. */
export function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return t ? t.slice(0, max).trim() : null;
}

/** An http(s) URL within the 2048-char limit, else null (too-long URLs are dropped, never cut). */
export function urlOrNull(value: unknown): string | null {
  const t = text(value, Infinity);
  return t && t.length <= LIMITS.url && /^https?:\/\//i.test(t) ? t : null;
}

/** Lowercase ASCII slug: "Women's Clothing" -> "womens-clothing" ('' when nothing is left). */
export function slug(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Caps an id at `max` chars, replacing the tail with a short hash so distinct long ids stay distinct. */
export function capId(id: string, max: number = LIMITS.categoryId): string {
  if (id.length <= max) return id;
  const hash = createHash('sha1').update(id).digest('hex').slice(0, 10);
  return `${id.slice(0, max - hash.length - 1)}~${hash}`;
}

/** Alias of `text` (name used by earlier scripts). */
export const clip = text;

/** Alias of `urlOrNull` (name used by earlier scripts). */
export const url = urlOrNull;
