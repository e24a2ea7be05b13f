import type { FacetOut } from '../search/index.js';
import { HIERARCHY } from './filters.js';

/** Facets the service counts for every store; mapped facet attributes come on top. */
const BUILTIN = new Set(['brand', 'category', 'category_tree', 'price', 'in_stock']);

export interface FacetRequest {
  /** Facet names for the search (null: the service's default set). */
  names: string[] | null;
  /** The Algolia names asked for ('*': everything the service returns). */
  asked: Set<string> | '*';
}

/**
 * Algolia facet names into the service's: `categories.lvlN` is the category tree, `*` every
 * facet; names the store does not have are left out, as Algolia answers them with nothing.
 */
export function facetRequest(facets: string[], known: Set<string>): FacetRequest {
  if (facets.includes('*')) return { names: null, asked: '*' };
  const names = new Set<string>();
  for (const f of facets) {
    if (HIERARCHY.test(f)) names.add('category_tree');
    else if (BUILTIN.has(f) || known.has(f)) names.add(f);
  }
  return { names: [...names], asked: new Set(facets) };
}

export interface AlgoliaFacets {
  facets: Record<string, Record<string, number>>;
  facets_stats: Record<string, { min: number; max: number }>;
  /** Display label of each `categories.lvlN` value in the response language (an extension: values are level keys). */
  categoryLabels: Record<string, string>;
}

/**
 * The service's facets as Algolia's `facets` (value -> count, at most `maxValues` per facet) and
 * `facets_stats` (price min and max). Category tree buckets (`lvl:a>b`) become
 * `categories.lvl<depth>` values `a>b`, labelled in `categoryLabels`.
 */
export function toAlgoliaFacets(out: FacetOut[], asked: FacetRequest['asked'], maxValues: number, lang: string): AlgoliaFacets {
  const result: AlgoliaFacets = { facets: {}, facets_stats: {}, categoryLabels: {} };
  const wants = (name: string) => asked === '*' || asked.has(name);
  for (const f of out) {
    if (f.type === 'range') {
      if (!wants(f.name)) continue;
      result.facets[f.name] = {};
      if (f.min != null && f.max != null) result.facets_stats[f.name] = { min: Number(f.min), max: Number(f.max) };
    } else if (f.type === 'category_tree') {
      for (const b of f.buckets ?? []) {
        const key = b.value.startsWith('lvl:') ? b.value.slice(4) : b.value;
        const name = `categories.lvl${key.split('>').length - 1}`;
        if (!wants(name)) continue;
        const level = (result.facets[name] ??= {});
        if (Object.keys(level).length < maxValues) level[key] = b.count;
        const label = b.label ? (b.label[lang] ?? b.label.en ?? Object.values(b.label)[0]) : null;
        result.categoryLabels[key] = label ?? key.split('>').pop()!;
      }
    } else if (wants(f.name)) {
      const values: Record<string, number> = {};
      for (const b of (f.buckets ?? []).slice(0, maxValues)) values[b.value] = b.count;
      result.facets[f.name] = values;
    }
  }
  if (asked !== '*') for (const name of asked) if (HIERARCHY.test(name)) result.facets[name] ??= {};
  return result;
}
