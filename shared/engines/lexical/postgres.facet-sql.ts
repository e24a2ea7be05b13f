/**
 * The SQL pieces every facet count is made of, shared by the search statement (facets over a
 * query's matches, postgres.engine.ts) and the held whole-store counts (postgres.store-facets.ts),
 * so both count the same values with the same limits and labels.
 */

/** Buckets per facet: the port's limits (port.ts), which every engine answers. */
export { FACET_LIMIT, TREE_LIMIT, facetLimit } from './port.js';

/** `category` counts leaf category ids, `category_tree` the level keys (`lvl:...`) category_ids also holds. */
export const isCategoryFacet = (name: string): boolean => name === 'category' || name === 'category_tree';
export const categoryKeyTest = (name: string, key: string): string => `${key} ${name === 'category' ? 'NOT ' : ''}LIKE 'lvl:%'`;

/** A category bucket's label, read by its key (binds the tenant id); `b.value` is the bucket's key. */
export const CATEGORY_LABEL = `(SELECT sc.label FROM search_categories sc WHERE sc.tenant_id = ? AND sc.id = b.value)`;

/**
 * A non-category facet's values per product row: the value expression, the row test, and their
 * bindings (in that order). `col` qualifies a column (`d.` or nothing). Attributes are read from
 * the `facets` JSON, an array of values or one value.
 */
export function facetValues(name: string, col: (c: string) => string): { value: string; test: string | null; bindings: unknown[] } {
  if (name === 'brand') return { value: col('brand'), test: `${col('brand')} IS NOT NULL`, bindings: [] };
  if (name === 'in_stock') return { value: `${col('in_stock')}::text`, test: null, bindings: [] };
  const f = col('facets');
  return {
    value: `jsonb_array_elements_text(CASE jsonb_typeof(${f}->?) WHEN 'array' THEN ${f}->? ELSE jsonb_build_array(${f}->?) END)`,
    test: `jsonb_exists(${f}, ?)`,
    bindings: [name, name, name, name],
  };
}
