/** One level of a category path: language -> name. */
export type LangMap = Record<string, string>;

export interface CategoryRef {
  id: string;
  path: LangMap[];
}

/** The batch API's product shape (spec 2.6 ProductIn). */
export interface ProductIn {
  id: string;
  name: LangMap;
  description?: LangMap;
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
  attributes?: Record<string, string | number | boolean | string[]>;
  tags?: string[];
  popularity?: number | null;
  margin?: number | null;
  visible?: boolean;
  updated_at?: string | null;
  extra?: Record<string, unknown>;
}

export const clip = (s: unknown, max: number): string | null => (typeof s === 'string' && s.trim() ? s.trim().slice(0, max) : null);
export const url = (s: unknown): string | null => (typeof s === 'string' && s.length > 0 && s.length <= 2048 ? s : null);
export const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 128) || 'x';
