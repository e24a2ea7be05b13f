import type { FacetCount, FilterValue, LexicalEngine } from '../../engines/lexical/port.js';
import { normalizeText } from '../../text/normalize.js';
import { clipChars } from '../../text/valid-text.js';
import type { TenantSearchContext } from '../tenant-context.js';
import type { ModelRewriteT } from './rewrite-prompt.js';

export type Sort = 'relevance' | 'price_asc' | 'price_desc' | 'newest' | 'popular';

/** A model rewrite checked against the store: only values the catalog has survive. */
export interface CheckedRewrite {
  text: string;
  filters: Record<string, FilterValue>;
  sort: Sort | null;
  dropped: Array<{ field: string; value: unknown; why: string }>;
}

/**
 * Checks a model's rewrite against the store's real values, with one facet query over the whole
 * catalog: brands must be the store's brands, categories one of its category levels (by label in
 * any language), attributes a mapped facet with that value among its most frequent 50, and a price
 * range possible in the store (not negative, not empty, overlapping the catalog's price range).
 * Whatever fails is dropped and listed.
 */
export async function checkRewrite(raw: ModelRewriteT, ctx: TenantSearchContext, engine: LexicalEngine): Promise<CheckedRewrite> {
  const out: CheckedRewrite = { text: clipChars(normalizeText(raw.text), 256).trim(), filters: {}, sort: raw.sort, dropped: [] };
  const drop = (field: string, value: unknown, why: string) => out.dropped.push({ field, value, why });
  const attrs = raw.filters.attributes.filter((a) => {
    if (ctx.facetNames.has(a.name)) return true;
    drop(`attributes.${a.name}`, a.value, 'unknown_attribute');
    return false;
  });
  const facetNames = ['price', ...(raw.filters.category.length ? ['category_tree'] : []), ...new Set(attrs.map((a) => a.name))];
  const catalog = await engine.search({ tenantId: ctx.tenantId, tokens: [], offset: 0, limit: 0, facets: facetNames });

  const brands: string[] = [];
  for (const b of raw.filters.brand) {
    const known = ctx.rules.brands.get(normalizeText(b));
    if (known) brands.push(known);
    else drop('brand', b, 'unknown_brand');
  }
  if (brands.length) out.filters.brand = [...new Set(brands)];

  const tree = (catalog.facets.category_tree as FacetCount[] | undefined) ?? [];
  const categories: string[] = [];
  for (const c of raw.filters.category) {
    const n = normalizeText(c);
    const hit = tree.find((b) => Object.values(b.label ?? {}).some((l) => normalizeText(l) === n) || b.value.split('>').pop() === n);
    if (hit) categories.push(hit.value);
    else drop('category', c, 'unknown_category');
  }
  if (categories.length) out.filters.category = [...new Set(categories)];

  for (const a of attrs) {
    const buckets = (catalog.facets[a.name] as FacetCount[] | undefined) ?? [];
    const hit = Array.isArray(buckets) ? buckets.find((b) => normalizeText(b.value) === normalizeText(a.value)) : undefined;
    if (!hit) {
      drop(`attributes.${a.name}`, a.value, 'unknown_value');
      continue;
    }
    const list = (out.filters[a.name] as string[] | undefined) ?? [];
    if (!list.includes(hit.value)) list.push(hit.value);
    out.filters[a.name] = list;
  }

  const range = (catalog.facets.price ?? { min: null, max: null }) as { min: number | null; max: number | null };
  const { price_min: lo, price_max: hi } = raw.filters;
  if (lo !== null || hi !== null) {
    const why = impossiblePrice(lo, hi, range);
    if (why) drop('price', { gte: lo, lte: hi }, why);
    else out.filters.price = { ...(lo !== null ? { gte: lo } : {}), ...(hi !== null ? { lte: hi } : {}) };
  }
  return out;
}

function impossiblePrice(lo: number | null, hi: number | null, range: { min: number | null; max: number | null }): string | null {
  if ((lo !== null && (!Number.isFinite(lo) || lo < 0)) || (hi !== null && (!Number.isFinite(hi) || hi < 0))) return 'negative_price';
  if (lo !== null && hi !== null && lo > hi) return 'empty_price_range';
  if (hi !== null && range.min !== null && hi < range.min) return 'below_catalog_prices';
  if (lo !== null && range.max !== null && lo > range.max) return 'above_catalog_prices';
  return null;
}
