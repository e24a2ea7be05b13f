import { categoryLevelKey, facetLimit, ownFilter, withNumberForms, type EngineQuery, type EngineResult, type FacetCount, type FilterValue } from './port.js';
import { normalizeText } from '../../text/normalize.js';
import { facetFieldName, fromFilterKey, numericFieldName, parseCategoryFacetValue, toFilterKey } from './typesense.schema.js';
import { alternativeItems, queryWords, type SynonymItem } from './typesense.alternatives.js';

/** Searched fields, best first; weights and typo budgets line up with this order. Codes: never typo-corrected, never prefixed. */
const QUERY_FIELDS = [
  { name: 'name_norm', weight: 15, typos: 2, prefix: true },
  { name: 'brand_norm', weight: 15, typos: 1, prefix: true },
  { name: 'codes', weight: 12, typos: 0, prefix: false },
  { name: 'category_text', weight: 8, typos: 1, prefix: true },
  { name: 'attribute_text', weight: 8, typos: 1, prefix: true },
  { name: 'name_stem', weight: 4, typos: 1, prefix: true },
  { name: 'description_norm', weight: 1, typos: 1, prefix: false },
];
const list = (pick: (f: (typeof QUERY_FIELDS)[number]) => unknown) => QUERY_FIELDS.map(pick).join(',');

/** Matches nothing: `visible:=true` is always part of the filter. */
const NOTHING = 'visible:=false';

export type SearchParams = Record<string, string | number | boolean>;

/** The searches one engine query needs: the main one, plus one per facet whose own filter is set (disjunctive counts). */
export interface SearchPlan {
  main: SearchParams;
  facetsOf: string[][];
  extras: SearchParams[];
  /** The terms' other alternatives, as the synonym set every search of the plan names (none: no set). */
  alternatives: SynonymItem[];
}

/** Field a facet name counts on. */
export function facetField(name: string): string {
  if (name === 'category') return 'category_facet';
  if (name === 'category_tree' || name === 'brand' || name === 'price' || name === 'in_stock') return name;
  return facetFieldName(name);
}

/** The filter a facet ignores for its own counts. */

/** A filter_by value: plain words as they are, anything else in backticks (commas, spaces, brackets, operators). */
function quote(v: string): string {
  return /^[\p{L}\p{N}_.-]+$/u.test(v) ? v : `\`${v}\``;
}

const isRange = (v: FilterValue): v is { gte?: number | null; lte?: number | null } => typeof v === 'object' && !Array.isArray(v);
const asList = (v: FilterValue): string[] => (Array.isArray(v) ? v.map(String) : [String(v)]);
const num = (n: number) => {
  if (!Number.isFinite(n)) throw new Error(`not a finite number in a range filter: ${n}`);
  return String(n);
};

/** `filter_by` for the engine's filter names (brand, category, price, in_stock, facet attributes); always visible only. */
export function filterBy(filters: Record<string, FilterValue> | undefined, skip?: string): string {
  const parts = ['visible:=true'];
  for (const [name, value] of Object.entries(filters ?? {})) {
    if (name === skip) continue;
    if (isRange(value)) {
      // An attribute's range reads its numbers (numericFieldName): a text value ("8GB") is outside every range.
      const field = name === 'price' ? 'price' : numericFieldName(name);
      if (value.gte != null) parts.push(`${field}:>=${num(value.gte)}`);
      if (value.lte != null) parts.push(`${field}:<=${num(value.lte)}`);
    } else if (name === 'in_stock') {
      parts.push(`in_stock:=${inStockOf(value)}`);
    } else if (typeof value === 'boolean') {
      parts.push(`${facetFieldName(name)}:=${value}`);
    } else {
      let field = facetFieldName(name);
      // An attribute's number in any writing ("9.0", "1e1") is also its plain form, the text `f_<name>` holds for a stored number ("9").
      let values = asList(value);
      if (name === 'brand') {
        field = 'brand_key';
        values = values.map((v) => normalizeText(v));
      } else if (name === 'category') {
        field = 'category_ids';
        values = values.flatMap((v) => [v, `lvl:${categoryLevelKey(v.split('>'))}`]);
      } else {
        values = withNumberForms(values);
      }
      // Typesense trims values and cannot express an empty one.
      const keys = [...new Set(values.map((v) => toFilterKey(v).trim()).filter(Boolean))];
      parts.push(keys.length ? `${field}:=[${keys.map(quote).join(',')}]` : NOTHING);
    }
  }
  return parts.join(' && ');
}

/** The stock an `in_stock` filter keeps: true, 'true' or a list holding 'true' keep what is in stock. */
const inStockOf = (value: FilterValue): boolean => value === true || value === 'true' || (Array.isArray(value) && value.includes('true'));

/** `filterBy` plus the id restrictions (`ids`, `exclude`). */
function filterWithIds(q: EngineQuery, skip?: string): string {
  const parts = [filterBy(q.filters, skip)];
  if (q.ids) parts.push(q.ids.length ? `id:=[${q.ids.map(quote).join(',')}]` : NOTHING);
  if (q.exclude?.length) parts.push(`id:!=[${q.exclude.map(quote).join(',')}]`);
  return parts.join(' && ');
}

/** `id:[...]` for a delete by ids; ids containing a backtick cannot be written there (see toFilterKey). */
export function idFilter(ids: string[]): string {
  return `id:[${ids.map(quote).join(',')}]`;
}

/**
 * Merchandising boosts as one weighted `_eval` ahead of the text match (Typesense orders by it
 * first: a boosted product outranks every unboosted one, a tier rather than a factor). A bury is
 * written as a boost of everything else where its filter is a single value list (`field:!=[...]`)
 * or `in_stock` (the other stock: its filter is `in_stock:=<bool>`, which has no list to negate);
 * other buries cannot be expressed and are left out (README, Merchandising).
 */
function shiftEval(q: EngineQuery): string[] {
  const parts: string[] = [];
  for (const shift of q.boost?.shifts ?? []) {
    const entries = Object.entries(shift.filters);
    if (shift.factor > 1) {
      parts.push(`(${filterBy(shift.filters).replace(/^visible:=true( && )?/, '') || 'visible:=true'}):${Math.max(1, Math.round(shift.factor))}`);
    } else if (entries.length === 1 && entries[0][0] === 'in_stock' && !isRange(entries[0][1])) {
      parts.push(`(in_stock:=${!inStockOf(entries[0][1])}):${Math.max(1, Math.round(1 / shift.factor))}`);
    } else if ((entries.length === 1 && Array.isArray(entries[0][1])) || (entries.length === 1 && typeof entries[0][1] === 'string')) {
      const positive = filterBy(shift.filters).replace(/^visible:=true && /, '');
      parts.push(`(${positive.replace(':=[', ':!=[')}):${Math.max(1, Math.round(1 / shift.factor))}`);
    }
  }
  return parts.length ? [`_eval([${parts.join(', ')}]):desc`] : [];
}

function sortBy(q: EngineQuery): string {
  const head = q.boost?.inStockFirst ? ['_eval(in_stock:true):desc'] : [];
  if ((q.sort ?? 'relevance') === 'relevance') head.push(...shiftEval(q));
  switch (q.sort ?? 'relevance') {
    case 'price_asc':
      return [...head, 'price:asc'].join(',');
    case 'price_desc':
      return [...head, 'price:desc'].join(',');
    case 'newest':
      return [...head, 'created_at:desc'].join(',');
    case 'popular':
      return [...head, 'popularity:desc', '_text_match:desc'].join(',');
    default:
      return [...head, '_text_match:desc', 'popularity:desc'].join(',');
  }
}

/** `q`: the shopper's own words (alternatives go in the plan's synonym items, typesense.alternatives.ts). */
function queryText(q: EngineQuery): string {
  const words = queryWords(q);
  return words.length ? words.join(' ') : '*';
}

export function searchPlan(q: EngineQuery): SearchPlan {
  const facets = q.facets ?? [];
  // Counts that follow every filter (facetsFollowFilters) are the main search's own.
  const own = q.facetsFollowFilters ? [] : facets.filter((f) => q.filters?.[ownFilter(f)] !== undefined);
  const shared = facets.filter((f) => !own.includes(f));
  const exact = q.terms?.some((t) => t.exact) ?? false;
  const base: SearchParams = {
    q: queryText(q),
    query_by: list((f) => f.name),
    query_by_weights: list((f) => f.weight),
    num_typos: list((f) => f.typos),
    prefix: list((f) => Boolean(q.prefixLast) && f.prefix),
    // All words must match unless matchAny; then words are dropped until a page is full.
    drop_tokens_threshold: q.matchAny ? Math.max(q.offset + q.limit, 10) : 0,
    ...(exact ? { enable_typos_for_numerical_tokens: false, enable_typos_for_alpha_numerical_tokens: false } : {}),
  };
  const withFacets = (names: string[], params: SearchParams): SearchParams =>
    names.length ? { ...params, facet_by: names.map(facetField).join(','), max_facet_values: Math.max(...names.map(facetLimit)) } : params;
  const main = withFacets(shared, {
    ...base,
    filter_by: filterWithIds(q),
    sort_by: sortBy(q),
    // Page numbers when the offset falls on a page boundary, else offset and limit (merchandising's pin windows).
    ...(q.limit > 0 && q.offset % q.limit !== 0 ? { offset: q.offset, limit: q.limit } : { page: q.limit > 0 ? q.offset / q.limit + 1 : 1, per_page: q.limit }),
    include_fields: 'id,card_json,description_json',
  });
  const extras = own.map((f) => withFacets([f], { ...base, filter_by: filterWithIds(q, ownFilter(f)), per_page: 0 }));
  return { main, facetsOf: [shared, ...own.map((f) => [f])], extras, alternatives: alternativeItems(q) };
}

interface TsFacetCounts {
  field_name?: string;
  counts?: Array<{ value?: string; count?: number }>;
  stats?: { min?: number; max?: number };
}

export interface TsSearchResult {
  found?: number;
  hits?: Array<{ document?: Record<string, unknown>; text_match?: number }>;
  facet_counts?: TsFacetCounts[];
}

function facetOf(name: string, counts: TsFacetCounts | undefined): EngineResult['facets'][string] {
  if (name === 'price') return { min: counts?.stats?.min ?? null, max: counts?.stats?.max ?? null };
  const rows = (counts?.counts ?? []).slice(0, facetLimit(name));
  return rows.map((c): FacetCount => {
    const value = String(c.value ?? '');
    const count = c.count ?? 0;
    if (name === 'category' || name === 'category_tree') return { ...parseCategoryFacetValue(value), count };
    return { value: name === 'brand' ? value : fromFilterKey(value), count };
  });
}

/** The engine result of a plan's responses (main first, then the extras in plan order). */
export function toEngineResult(plan: SearchPlan, results: TsSearchResult[]): EngineResult {
  const facets: EngineResult['facets'] = {};
  plan.facetsOf.forEach((names, i) => {
    for (const name of names)
      facets[name] = facetOf(
        name,
        results[i]?.facet_counts?.find((c) => c.field_name === facetField(name)),
      );
  });
  const hits = (results[0]?.hits ?? []).map((h) => {
    const doc = h.document ?? {};
    return {
      id: String(doc.id),
      score: h.text_match ?? 0,
      card: JSON.parse(String(doc.card_json)),
      description: typeof doc.description_json === 'string' ? JSON.parse(doc.description_json) : null,
    };
  });
  return { total: results[0]?.found ?? 0, hits, facets };
}
