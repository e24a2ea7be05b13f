import type { EngineResult, FacetCount } from '../engines/lexical/port.js';

export const BUILTIN_FACETS = ['brand', 'category', 'category_tree', 'price', 'in_stock'] as const;
export const BUILTIN_FILTERS = new Set(['brand', 'category', 'price', 'in_stock']);

export interface FacetOut {
  name: string;
  type: 'terms' | 'range' | 'boolean' | 'category_tree';
  buckets?: Array<{ value: string; label: Record<string, string> | null; count: number }>;
  min?: number | null;
  max?: number | null;
}

const TYPES: Record<string, FacetOut['type']> = { price: 'range', in_stock: 'boolean', category_tree: 'category_tree' };

/** Engine counts in the response's Facet shape, in the order asked. */
export function toFacets(names: string[], counts: EngineResult['facets']): FacetOut[] {
  return names.map((name) => {
    const type = TYPES[name] ?? 'terms';
    const value = counts[name];
    if (type === 'range') {
      const r = (value ?? { min: null, max: null }) as { min: number | null; max: number | null };
      return { name, type, min: r.min, max: r.max };
    }
    const buckets = ((value as FacetCount[] | undefined) ?? []).map((b) => ({ value: b.value, label: b.label ?? null, count: b.count }));
    return { name, type, buckets };
  });
}
