import { Timestamp } from '../platform/schemas.js';
import { invalidText } from '../text/valid-text.js';
import { moneyString, type StoredProduct } from './canonical.js';
import { ProductIn } from './product.schema.js';

/**
 * The batch's fast path for the common case: a product that certainly passes `invalidText` and
 * `ProductIn` becomes its stored form in one pass, with the top-level keys already in canonical
 * (sorted) order, so canonicalJson serializes it without copying. It answers null for anything it
 * is not sure of (a bad or unusual value, an unknown field, a `__proto__` key): those go through
 * the text check and zod as before, so every error stays exactly what it was. The rules below are
 * ProductIn's (product.schema.ts), some stricter; test/catalog/well-formed.test.ts checks that
 * every product this accepts gets the canonical JSON the zod path gives it.
 */
export function wellFormedProduct(raw: unknown): StoredProduct | null {
  if (!isPlain(raw)) return null;
  const p = raw as Record<string, unknown>;
  for (const key in p) if (!FIELDS.has(key)) return null;
  const { id, name, price, currency } = p;
  if (typeof id !== 'string' || id.length < 1 || id.length > 128 || !textOk(id)) return null;
  if (!langMap(name) || !Object.values(name as Record<string, string>).some((v) => v.trim().length > 0)) return null;
  if (!money(price) || typeof currency !== 'string' || !CURRENCY.test(currency)) return null;
  if (p.description !== undefined && !langMap(p.description)) return null;
  for (const [field, max] of SHORT_TEXT) if (!nullishText(p[field], max)) return null;
  if (p.sale_price != null && !money(p.sale_price)) return null;
  if (!optionalBoolean(p.in_stock) || !optionalBoolean(p.visible)) return null;
  const qty = p.stock_qty;
  if (qty != null && !(Number.isSafeInteger(qty) && (qty as number) >= 0)) return null;
  if (p.popularity != null && !(finite(p.popularity) && (p.popularity as number) >= 0)) return null;
  if (p.margin != null && !finite(p.margin)) return null;
  if (p.categories !== undefined && !categories(p.categories)) return null;
  if (p.attributes !== undefined && !attributes(p.attributes)) return null;
  if (p.tags !== undefined && !stringArray(p.tags, 100, 200)) return null;
  const at = p.updated_at;
  if (at != null && !(typeof at === 'string' && textOk(at) && Timestamp.safeParse(at).success)) return null;
  if (p.extra !== undefined && !(isPlain(p.extra) && !hasProtoKey(p.extra) && invalidText(p.extra, { max: 1 }).length === 0)) return null;
  // The stored form (toStored of zod's output): absent optionals left out, defaults applied, prices as strings; keys sorted.
  const out: Record<string, unknown> = {};
  for (const key of STORED_ORDER) {
    const v = p[key];
    if (key === 'price') out.price = moneyString(v as number | string);
    else if (key === 'sale_price') out.sale_price = v == null ? null : moneyString(v as number | string);
    else if (key === 'in_stock' || key === 'visible') out[key] = v ?? true;
    else if (v !== undefined) out[key] = v;
  }
  return out as StoredProduct;
}

/** ProductIn's fields (read from the schema, so the two cannot drift); a key outside them is zod's `unknown_field`. */
const FIELDS = new Set(Object.keys(ProductIn.shape));
/** The stored product's keys in canonicalJson's order (sorted). */
const STORED_ORDER = [...FIELDS].sort();
const SHORT_TEXT: Array<[string, number]> = [
  ['brand', 200],
  ['model', 200],
  ['sku', 200],
  ['gtin', 50],
  ['url', 2048],
  ['image_url', 2048],
];
const LANG_KEY = /^[a-z]{2}(-[A-Za-z]{2})?$/;
const CURRENCY = /^[A-Z]{3}$/;
const MONEY_TEXT = /^\d{1,12}(\.\d{1,6})?$/;

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/** What valid-text.ts's textProblem refuses: lone surrogates and U+0000. */
function textOk(s: string): boolean {
  return s.isWellFormed() && !s.includes('\u0000');
}

/** A zod record would drop an own `__proto__` key (it assigns it): leave those to zod. */
function hasProtoKey(v: object): boolean {
  return Object.prototype.hasOwnProperty.call(v, '__proto__');
}

function finite(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v);
}

function money(v: unknown): boolean {
  return typeof v === 'number' ? v >= 0 && v < 1e12 : typeof v === 'string' && MONEY_TEXT.test(v);
}

function optionalBoolean(v: unknown): boolean {
  return v === undefined || typeof v === 'boolean';
}

function nullishText(v: unknown, max: number): boolean {
  return v == null || (typeof v === 'string' && v.length <= max && textOk(v));
}

function langMap(v: unknown): boolean {
  if (!isPlain(v)) return false;
  for (const key in v) {
    const text = v[key];
    if (!LANG_KEY.test(key) || typeof text !== 'string' || text.length > 20_000 || !textOk(text)) return false;
  }
  return true;
}

function stringArray(v: unknown, maxItems: number, maxLength: number): boolean {
  if (!Array.isArray(v) || v.length > maxItems) return false;
  for (const s of v) if (typeof s !== 'string' || s.length > maxLength || !textOk(s)) return false;
  return true;
}

function categories(v: unknown): boolean {
  if (!Array.isArray(v) || v.length > 50) return false;
  for (const c of v) {
    if (!isPlain(c)) return false;
    let keys = 0;
    for (const key in c) {
      if (key !== 'id' && key !== 'path') return false;
      keys++;
    }
    const { id, path } = c;
    if (keys !== 2 || typeof id !== 'string' || id.length < 1 || id.length > 128 || !textOk(id)) return false;
    if (!Array.isArray(path) || path.length < 1 || path.length > 10 || !path.every(langMap)) return false;
  }
  return true;
}

function attributes(v: unknown): boolean {
  if (!isPlain(v) || hasProtoKey(v)) return false;
  for (const key in v) {
    if (key.length < 1 || key.length > 200 || !textOk(key)) return false;
    const a = v[key];
    if (typeof a === 'string') {
      if (a.length > 1000 || !textOk(a)) return false;
    } else if (typeof a === 'number') {
      if (!Number.isFinite(a)) return false;
    } else if (typeof a !== 'boolean' && !stringArray(a, 100, 1000)) return false;
  }
  return true;
}
