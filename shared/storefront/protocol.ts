/**
 * Names shared by the endpoint and the widget. The Algolia protocol is served under a path
 * prefix: the lite client and search-insights both accept one in their host (README "Storefront").
 */
export const ALGOLIA_PREFIX = '/algolia';

/** Index name suffixes: `<index>_price_asc` is the products sorted by price (Algolia's replica convention). */
export const SORT_SUFFIXES = { price_asc: 'price_asc', price_desc: 'price_desc', newest: 'newest', popular: 'popular' } as const;
export type SortName = keyof typeof SORT_SUFFIXES;

/** `<index>_query_suggestions`: completions (queries, categories, brands); `<index>_product_suggestions`: product previews. Both from suggest. */
export const QUERY_SUGGESTIONS = '_query_suggestions';
export const PRODUCT_SUGGESTIONS = '_product_suggestions';

export type IndexTarget = { kind: 'products'; base: string; sort: SortName | null } | { kind: 'query_suggestions' | 'product_suggestions'; base: string };

const NAME = /^[A-Za-z0-9_.\-]{1,200}$/;

/** What an index name addresses; null for a name that cannot be an index. The store comes from the key, never the name. */
export function parseIndexName(name: string): IndexTarget | null {
  if (!NAME.test(name)) return null;
  if (name.endsWith(QUERY_SUGGESTIONS)) return { kind: 'query_suggestions', base: name.slice(0, -QUERY_SUGGESTIONS.length) };
  if (name.endsWith(PRODUCT_SUGGESTIONS)) return { kind: 'product_suggestions', base: name.slice(0, -PRODUCT_SUGGESTIONS.length) };
  for (const sort of Object.keys(SORT_SUFFIXES) as SortName[]) {
    if (name.endsWith(`_${sort}`) && name.length > sort.length + 1) return { kind: 'products', base: name.slice(0, -sort.length - 1), sort };
  }
  return { kind: 'products', base: name, sort: null };
}
