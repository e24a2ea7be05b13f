/**
 * The lexical engine port. Engines store search documents and retrieve and count; query
 * understanding, normalization, synonyms and ranking policy live above this port.
 */

import { asciiDigits, normalizeText } from '../../text/normalize.js';

/** Key of a category level for any-level filtering (SearchDoc.categoryIds): normalized labels root first, joined by '>'. */
export function categoryLevelKey(labels: string[]): string {
  return labels.map((l) => normalizeText(l)).join('>');
}

/** `lvl:<categoryLevelKey>` of every level of a path (each prefix of `labels`), each label normalized once. */
export function categoryLevelKeys(labels: string[]): string[] {
  const keys: string[] = [];
  let key = '';
  for (let i = 0; i < labels.length; i++) {
    key = i ? `${key}>${normalizeLabel(labels[i])}` : normalizeLabel(labels[i]);
    keys.push(`lvl:${key}`);
  }
  return keys;
}

/** Category labels recur on every product of their category: each is normalized once (bounded). */
const LABELS = new Map<string, string>();
function normalizeLabel(label: string): string {
  let norm = LABELS.get(label);
  if (norm === undefined) {
    if (LABELS.size >= 20_000) LABELS.clear();
    norm = normalizeText(label);
    LABELS.set(label, norm);
  }
  return norm;
}

/** Labels by category id of a search document: leaf ids, and the `lvl:` key of every level of every path (category_tree buckets). */
export function categoryLabels(d: Pick<SearchDoc, 'categoryPaths'>): Map<string, Record<string, string>> {
  const labels = new Map<string, Record<string, string>>();
  for (const path of d.categoryPaths) {
    const keys = categoryLevelKeys(path.map((level) => level.label.en ?? Object.values(level.label)[0] ?? ''));
    path.forEach((level, i) => {
      labels.set(keys[i], level.label);
      if (i === path.length - 1) labels.set(level.id, level.label);
    });
  }
  return labels;
}

/** One product as the engines index it; built by the catalog pipeline from a stored product and the attribute mapping. */
export interface SearchDoc {
  id: string;
  /** Display names per language, as sent. */
  name: Record<string, string>;
  /** Normalized (Arabic layer, lower-case) text of all name languages. */
  nameNorm: string;
  /**
   * `<lang>:<term>` (and stems) of each name language, plus a `<lang>:` marker per language; a
   * one-language name has only its marker. A query's own language is weighted first with it.
   */
  langTerms?: string[];
  /** The product type: head noun forms of the name (shared/text/product-head.ts), each language's. */
  heads?: string[];
  /** Stemmed tokens of the name, space-joined; a lower-weighted field so exact forms rank first. */
  nameStem: string;
  brand: string | null;
  brandNorm: string | null;
  /** Model, SKU and GTIN, normalized; matched exactly, never typo-corrected. */
  codes: string[];
  /** Category ids of every level the product sits in (any-level filtering). */
  categoryIds: string[];
  /** Category paths as labels, root first: one entry per category. */
  categoryPaths: Array<Array<{ id: string; label: Record<string, string> }>>;
  /** Normalized category labels, attribute values and tags joined. */
  categoryText: string;
  attributeText: string;
  descriptionNorm: string;
  /** Facet values by canonical attribute name (mapped attributes with facet: true). */
  facets: Record<string, string[] | number | boolean>;
  /** Effective price (sale price when set), for filters and sorts. */
  price: number;
  inStock: boolean;
  visible: boolean;
  popularity: number;
  margin: number | null;
  createdAt: number;
  /** Version of the stored product (its updated_at in ms): an older version never overwrites a newer one. */
  version?: number;
  /** What a search hit shows (ProductCard of the spec). */
  card: ProductCard;
  /** Start of the description per language, for highlights. */
  description?: Record<string, string>;
}

export interface ProductCard {
  id: string;
  name: Record<string, string>;
  url: string | null;
  image_url: string | null;
  price: string;
  sale_price: string | null;
  currency: string;
  in_stock: boolean;
  brand: string | null;
  category: Record<string, string> | null;
}

/** Index layout that depends on the tenant's settings (attribute mapping). */
export interface IndexSettings {
  /** Canonical attribute names that are facets, with their value type. */
  facetFields: Array<{ name: string; type: 'string' | 'number' | 'boolean' }>;
  locales: string[];
}

export type FilterValue = string[] | { gte?: number | null; lte?: number | null } | string | boolean;

/** A number as a filter value may write it: decimal, with a sign, a fraction or an exponent ("9.0", "-0", "1e1"); not "0x10" or "Infinity". */
const NUMBER_TEXT = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** Whether `text` is a number in decimal writing, exactly (no spaces, no `0x10`, `Infinity` or Arabic-Indic digits): a range bound's text. */
export const isDecimalNumber = (text: string): boolean => NUMBER_TEXT.test(text) && Number.isFinite(Number(text));

/**
 * The plain form of a filter value that is a number ("9.0", "9.00", "1e1", "-0", "٩"): the number
 * as the search documents write a stored number (String of it: "9", "10", "0"), so a value filter
 * matches a numerically equal stored number in every engine. Null for any other text.
 */
export function numberForm(value: string): string | null {
  const text = asciiDigits(value.trim());
  if (!NUMBER_TEXT.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? String(n) : null;
}

/** The plain forms (numberForm) of the values that are numbers, each once. */
export function numberForms(values: string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const form = numberForm(v);
    if (form !== null && !out.includes(form)) out.push(form);
  }
  return out;
}

/** An attribute filter's values and the plain forms of those that are numbers (numberForms); the same array when they add nothing. */
export function withNumberForms(values: string[]): string[] {
  const added = numberForms(values).filter((form) => !values.includes(form));
  return added.length ? [...values, ...added] : values;
}

/** One query term: any of its alternatives matches; an alternative is tokens that must all match (e.g. [['smart','watch'],['smartwatch']]). */
export interface QueryTerm {
  alternatives: string[][];
  /** Never match by stem or prefix (codes, numbers). */
  exact?: boolean;
  /** The words of a multi-word alternative must be adjacent ("head set" as typed), not just all present. */
  phrase?: boolean;
  /** The two words of an alternative must be adjacent or one word apart ("ipad 2": "iPad 2", "iPad Air 2"). */
  near?: boolean;
  /** With `matchAny`, a term too common to make a match alone ("x", "black"): it counts only beside a rarer term. */
  common?: boolean;
  /** Rarity in the store's catalog (BM25 idf): a rare word outweighs a common one in partial matches and in field scoring. Absent: 1. */
  weight?: number;
  /**
   * A word of the query's qualifier, after its preposition ("children" of "bike for children"):
   * matching any word, it counts in any field, descriptions included (they say whom a product is for).
   */
  qualifier?: boolean;
  /** A general-language preposition ("for" of "dresses for women"): matching any word, its match in a description counts nothing. */
  preposition?: boolean;
}

export interface EngineQuery {
  tenantId: string;
  /** The query's language: products whose name in that language matches rank first (engines that can). */
  lang?: string;
  /** Normalized query tokens; all must match unless `matchAny`. Ignored when `terms` is given. */
  tokens: string[];
  /** Richer form of `tokens`: compounds and expansions as alternatives. */
  terms?: QueryTerm[];
  /** Rank products matching each term's first alternative (the shopper's own words) above those matching only expansions. */
  preferFirstAlternative?: boolean;
  /** As-you-type previews: no text ranking (in-stock, then popularity), no facets, and `total` is only the hits returned. */
  noTextRank?: boolean;
  /** Match the last token as a prefix (as-you-type). */
  prefixLast?: boolean;
  matchAny?: boolean;
  filters?: Record<string, FilterValue>;
  /** Only these products (merchandising reads its pinned products under the search's filters). */
  ids?: string[];
  /** Never these products: they leave the matches, the total and the facet counts (hidden and pinned products). */
  exclude?: string[];
  sort?: 'relevance' | 'price_asc' | 'price_desc' | 'newest' | 'popular';
  offset: number;
  limit: number;
  /** Facet names; counts are disjunctive (a facet's own filter is ignored for its counts). `category_tree` counts every level. */
  facets?: string[];
  /**
   * Count every facet under every filter, its own too (Algolia's semantics: counts over the
   * matches shown; the storefront protocol asks for it). Absent or false: disjunctive counts, and
   * the engines send exactly what they send without this field.
   */
  facetsFollowFilters?: boolean;
  /**
   * Fewer strong matches than this (EngineResult.strong): the facets are not counted and the result
   * says `facetsDeferred` (the caller's any-word fallback counts them over its own matches). Engines
   * may ignore it.
   */
  deferFacetsBelow?: number;
  /** Business ranking inside relevance: in-stock first, popularity and margin weights 0..1. */
  boost?: {
    inStockFirst: boolean;
    popularity: number;
    margin: number;
    categories?: string[];
    /** Name words of a typical product of `categories`, with weights: those products rank first among the category's (Postgres engine). */
    typical?: Array<{ word: string; weight: number }>;
    /**
     * Forms of the product type the query names (its head word, when the store has products of
     * that type): products of that type rank above those that only mention it (accessories, "for X").
     */
    heads?: string[];
    /** The store's average name length in words: a match in a shorter name than the store's usual ranks higher (Postgres engine). */
    nameWords?: number;
    /**
     * Words of the query that are the store's brand words (Vocabulary.isOpener): with every word
     * matched, products whose names open with one rank above those that only mention it (Postgres engine).
     */
    openers?: string[];
    /**
     * The query names one gender (shared/text/audience.ts): matching any word, a product whose name
     * says the other and not the query's covers the query less (Postgres engine).
     */
    audience?: { own: string[]; other: string[] };
    /** Merchandising boosts (factor > 1) and buries (factor < 1): relevance of the products matching `filters` times `factor`. */
    shifts?: Array<{ filters: Record<string, FilterValue>; factor: number }>;
  };
}

/** Buckets an engine answers per facet (the most frequent values); the category tree gets more (every level of every path). */
export const FACET_LIMIT = 50;
export const TREE_LIMIT = 200;
export const facetLimit = (name: string): number => (name === 'category_tree' ? TREE_LIMIT : FACET_LIMIT);

/** The filter a facet's counts ignore (counts are disjunctive: a facet's buckets are counted without its own filter). */
export const ownFilter = (facet: string): string => (facet === 'category_tree' ? 'category' : facet);

export interface EngineHit {
  id: string;
  score: number;
  card: ProductCard;
  description?: Record<string, string> | null;
  /** Every term matched above the description (name, brand, codes, categories or attributes); absent when the engine does not tell. */
  strong?: boolean;
}

export interface FacetCount {
  value: string;
  count: number;
  label?: Record<string, string>;
}

export interface EngineResult {
  total: number;
  /** How many of the matches are `strong` (see EngineHit); absent when the engine does not tell. */
  strong?: number;
  hits: EngineHit[];
  facets: Record<string, FacetCount[] | { min: number | null; max: number | null }>;
  /** The facets were not counted (EngineQuery.deferFacetsBelow): `facets` is empty. */
  facetsDeferred?: boolean;
}

/** A generation left building: by whom (the jobs row that began it; null when not known) and for which tenant. */
export interface StaleBuild {
  tenantId: string;
  generation: number;
  owner: string | null;
}

export interface LexicalEngine {
  readonly name: string;
  /** Writes documents to every live generation of the tenant's index (creating the index on first use). */
  upsert(tenantId: string, docs: SearchDoc[], settings: IndexSettings): Promise<void>;
  /** Removes documents from every live generation; they leave search at once. */
  remove(tenantId: string, ids: string[]): Promise<void>;
  /**
   * Starts a new generation beside the serving one (dropping one still building); writes go to
   * both until the swap. `owner`: the reindex's jobs row, so a cancel drops only what it began.
   */
  beginGeneration(tenantId: string, settings: IndexSettings, owner?: string): Promise<number>;
  /** Fills a building generation (reindex). */
  writeGeneration(tenantId: string, generation: number, docs: SearchDoc[]): Promise<void>;
  /** Serves `generation` from now on and drops the older one. */
  swapGeneration(tenantId: string, generation: number): Promise<void>;
  /** Abandons a building generation (failed or canceled reindex); never the serving one. */
  dropGeneration(tenantId: string, generation: number): Promise<void>;
  /** Drops the generation `owner` began if it is still building (a canceled reindex); returns it, or null. */
  dropBuild(tenantId: string, owner: string): Promise<number | null>;
  /** Generations still building that began over `olderThanMs` ago: the maintenance sweep's candidates. */
  staleBuilds(olderThanMs: number): Promise<StaleBuild[]>;
  search(query: EngineQuery): Promise<EngineResult>;
  /** The tenant's index changed (written by another process; '*': every tenant's): what the engine derived from it in this process goes. */
  changed?(tenantId: string): void;
  /** Removes everything of a tenant. */
  dropTenant(tenantId: string): Promise<void>;
  /**
   * Deletes what the engine keeps at its server for queries' alternatives that no process has written
   * or used within `olderThanMs` (Typesense: synonym sets of alternatives); absent where nothing is kept.
   */
  dropUnusedAlternatives?(olderThanMs: number, signal?: AbortSignal): Promise<{ deleted: number; kept: number; unmarked: number }>;
  /** Sends what the engine holds back for later (Typesense: the sets' use marks) before the process stops; absent where nothing is. */
  close?(): Promise<void>;
}
