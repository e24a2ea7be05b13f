import { canonicalJson, sha256 } from '../platform/ids.js';

/** A product as stored: the ProductIn shape with defaults applied and prices as strings. */
export type StoredProduct = Record<string, unknown> & {
  id: string;
  name: Record<string, string>;
  price: string;
  sale_price: string | null;
  currency: string;
  in_stock: boolean;
  visible: boolean;
};

/**
 * Numbers become their shortest decimal string at the string form's precision (6 decimals: 19.990000000000002
 * is "19.99", 1e-7 is "0"), never an exponent the API would refuse back; strings are kept as sent.
 */
export function moneyString(value: number | string): string {
  if (typeof value !== 'number') return value;
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
}

/** Applies output types and drops absent optionals, so equal products hash equally. */
export function toStored(input: Record<string, unknown> & { price: number | string; sale_price?: number | string | null }): StoredProduct {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    out[key] = value;
  }
  out.price = moneyString(input.price);
  out.sale_price = input.sale_price == null ? null : moneyString(input.sale_price);
  return out as StoredProduct;
}

/** A product as it is written: its canonical JSON (stored as is) and the content hash of that text. */
export interface CanonicalProduct {
  id: string;
  json: string;
  hash: string;
}

/** The canonical JSON of a stored product and its content hash (a re-sent identical product is `unchanged`), serialized once for both. */
export function canonicalProduct(product: StoredProduct): CanonicalProduct {
  const json = canonicalJson(product);
  return { id: product.id, json, hash: sha256(json).slice(0, 32) };
}

/** ProductOut.product: everything except margin, which is never shown. */
export function publicProduct(product: StoredProduct): Record<string, unknown> {
  const { margin: _margin, ...rest } = product;
  return rest;
}
