import { clip, slug, url, type ProductIn } from './product-in.js';

/** Maps one Flipkart record (prices in INR) to ProductIn; null when it has no price. */
export function mapFlipkart(raw: Record<string, unknown>): ProductIn | null {
  const price = typeof raw.retail_price_inr === 'number' ? raw.retail_price_inr : typeof raw.discounted_price_inr === 'number' ? raw.discounted_price_inr : null;
  if (price === null) return null;
  const name = clip(raw.name, 5000) ?? String(raw.id);
  const sale = typeof raw.discounted_price_inr === 'number' && raw.discounted_price_inr < price ? raw.discounted_price_inr : null;
  const levels = categoryLevels(raw.category_path, name);
  const rating = [raw.overall_rating, raw.product_rating].find((r) => typeof r === 'number') as number | undefined;
  return {
    id: String(raw.id).slice(0, 128),
    name: { en: name },
    ...(clip(raw.description, 20_000) ? { description: { en: clip(raw.description, 20_000)! } } : {}),
    brand: clip(raw.brand, 200),
    url: url(raw.product_url),
    price,
    sale_price: sale,
    currency: 'INR',
    categories: levels.length ? [{ id: slug(levels.join(' ')), path: levels.map((l) => ({ en: l })) }] : [],
    popularity: rating ?? null,
    extra: { pid: raw.pid ?? null, fk_advantage: raw.fk_advantage ?? null },
  };
}

/** The category path without its last element when that is the product name itself (or cut with "..."). */
export function categoryLevels(path: unknown, name: string): string[] {
  if (!Array.isArray(path)) return [];
  const levels = path.map((l) => String(l).trim()).filter(Boolean).map((l) => l.slice(0, 200));
  const last = levels[levels.length - 1];
  if (last && (last.endsWith('...') || name.startsWith(last) || last === name)) levels.pop();
  return levels.slice(0, 10);
}
