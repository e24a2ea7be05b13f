import { LIMITS, capId, slug, text, urlOrNull, type CategoryRef, type ProductIn } from './product-in.js';

/** A raw Flipkart record (see /work/shared/data/flipkart-products/README.md). */
export type FlipkartRaw = Record<string, unknown>;

const money = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);
const sameStart = (a: string, b: string) => a.toLowerCase().startsWith(b.toLowerCase());

/**
 * Category levels of a Flipkart record, root first: blank and repeated consecutive levels dropped, and the last level
 * dropped when it is the product itself (equals or prefixes the name, starts with the name, or is cut off with "...").
 */
export function flipkartCategoryLevels(path: unknown, name: string): string[] {
  if (!Array.isArray(path)) return [];
  const levels: string[] = [];
  for (const level of path) {
    const t = text(level, LIMITS.text);
    if (t && t !== levels[levels.length - 1]) levels.push(t);
  }
  const last = levels[levels.length - 1];
  if (last && (last.endsWith('...') || sameStart(name, last) || sameStart(last, name))) levels.pop();
  return levels.slice(0, LIMITS.categoryLevels);
}

/** Category id of a path: level slugs joined with "/" ("clothing/womens-clothing/shorts"), capped at 128 chars. */
export function flipkartCategoryId(levels: string[]): string {
  return capId(levels.map((l, i) => slug(l) || `level${i + 1}`).join('/'));
}

/** Maps one Flipkart record to ProductIn (INR; sale price only when below list price); null when it has no price, id or name. */
export function mapFlipkart(raw: FlipkartRaw): ProductIn | null {
  const id = text(raw.id === undefined || raw.id === null ? null : String(raw.id), Infinity);
  const name = text(raw.name, LIMITS.text);
  const price = money(raw.retail_price_inr) ?? money(raw.discounted_price_inr);
  if (!id || id.length > LIMITS.id || !name || price === null) return null;
  const discounted = money(raw.discounted_price_inr);
  const levels = flipkartCategoryLevels(raw.category_path, name);
  const categories: CategoryRef[] = levels.length ? [{ id: flipkartCategoryId(levels), path: levels.map((en) => ({ en })) }] : [];
  const description = text(raw.description, LIMITS.text);
  const popularity = money(raw.overall_rating) ?? money(raw.product_rating);
  return {
    id,
    name: { en: name },
    ...(description ? { description: { en: description } } : {}),
    brand: text(raw.brand, LIMITS.brand),
    url: urlOrNull(raw.product_url),
    price,
    sale_price: discounted !== null && discounted < price ? discounted : null,
    currency: 'INR',
    categories,
    popularity,
    extra: { pid: typeof raw.pid === 'string' ? raw.pid : null, fk_advantage: raw.fk_advantage === true },
  };
}

/** Alias of `flipkartCategoryLevels` (name used by earlier scripts). */
export const categoryLevels = flipkartCategoryLevels;
