import { createHash } from 'node:crypto';
import type { LexicalEngine } from '../engines/lexical/port.js';
import type { Tenant } from '../access/index.js';
import type { MappingItem } from '../catalog/index.js';
import type { SynonymRow } from '../synonyms/index.js';
import { normalizeText } from '../text/normalize.js';
import { COLOR_WORDS, type RuleContext } from './rule-parser.js';
import { buildCategoryIndex, type CategoryWordIndex } from './category-intent.js';
import { SynonymMatcher, type CompiledRuleInput } from './synonym-matcher.js';
import type { SuggestDictionary } from './suggest-dictionary.js';
import type { LoadedProfile } from './category-profile.js';

/** What the search path needs about a tenant, kept in process and refreshed in the background. */
export interface TenantSearchContext {
  tenantId: string;
  locales: string[];
  defaultLocale: string;
  ranking: Record<string, unknown>;
  /** Filter and facet names beyond the built-in ones: the mapped facet attributes. */
  facetNames: Set<string>;
  /** A fingerprint of the whole attribute mapping (names, units, value maps, facet flags): what an AI rewrite cached under it assumed. */
  mappingVersion: string;
  rules: RuleContext;
  categories: CategoryWordIndex;
  /** What each category's products are called (category targets as keys). */
  profiles: Map<string, LoadedProfile>;
  synonyms: SynonymMatcher;
  /** The tenant's biggest categories, for zero-result help (from the suggestion dictionary, no search needed). */
  popularCategories: Array<{ value: string; label: Record<string, string> | null; count: number }>;
  loadedAt: number;
}

/** What building a tenant's search context reads. */
export interface ContextSources {
  engine: LexicalEngine;
  tenant(tenantId: string): Promise<Tenant | undefined>;
  mapping(tenantId: string): Promise<{ items: MappingItem[] }>;
  profiles(tenantId: string): Promise<Map<string, LoadedProfile>>;
  synonyms(tenantId: string): Promise<SynonymRow[]>;
}

const COLOR_NAMES = new Set(['color', 'colour', 'لون']);

/**
 * Builds a tenant's search context (null: no such tenant). The colour values need a facet count
 * over the whole catalog: they are read again only when `catalogChanged` or the colour attribute
 * changed, else taken from `prev`.
 */
export async function buildContext(
  src: ContextSources,
  tenantId: string,
  dictionary: SuggestDictionary,
  prev: TenantSearchContext | null | undefined,
  catalogChanged: boolean,
): Promise<TenantSearchContext | null> {
  const tenant = await src.tenant(tenantId);
  if (!tenant) return null;
  const [mapping, profiles, ruleRows] = await Promise.all([src.mapping(tenantId), src.profiles(tenantId), src.synonyms(tenantId)]);
  const brandRows = dictionary.entriesOf('brand');
  const categoryRows = dictionary.entriesOf('category');
  const facetNames = new Set(mapping.items.filter((i) => i.facet ?? true).map((i) => i.canonical_name));
  const colorFacet = [...facetNames].find((n) => COLOR_NAMES.has(n.toLowerCase())) ?? null;
  const keep = prev && !catalogChanged && prev.rules.colorFacet === colorFacet;
  const colors = keep ? prev.rules.colors : colorFacet ? await colorValues(src.engine, tenantId, colorFacet) : new Map<string, string>();
  return {
    tenantId,
    locales: tenant.locales,
    defaultLocale: tenant.default_locale,
    ranking: (tenant.settings as { ranking?: Record<string, unknown> }).ranking ?? {},
    facetNames,
    mappingVersion: mappingVersion(mapping.items),
    categories: buildCategoryIndex(categoryRows),
    profiles,
    popularCategories: dictionary.categoryBuckets(categoryRows, 10),
    synonyms: new SynonymMatcher(ruleRows.map(compileRule)),
    rules: {
      brands: new Map(brandRows.map((r) => [r.norm, r.display])),
      colors,
      colorFacet,
      brandProducts: new Map(brandRows.map((r) => [r.norm, r.weight])),
    },
    loadedAt: Date.now(),
  };
}

/**
 * The mapping's fingerprint, order-free over items: a value_map change ("Red" -> "Crimson") changes
 * the values the products are indexed with, so a rewrite that filtered on the old ones is stale even
 * when the facet names stayed.
 */
export function mappingVersion(items: MappingItem[]): string {
  const rows = items.map((i) =>
    JSON.stringify([i.raw_name.toLowerCase(), i.canonical_name, i.unit ?? null, i.facet ?? true, Object.entries(i.value_map ?? {}).sort()]),
  );
  return createHash('sha256').update(rows.sort().join('\n')).digest('base64url').slice(0, 16);
}

/** The store's values of its colour attribute, keyed by the colour words (English and Arabic) that name them. */
async function colorValues(engine: LexicalEngine, tenantId: string, colorFacet: string): Promise<Map<string, string>> {
  const res = await engine.search({ tenantId, tokens: [], offset: 0, limit: 0, facets: [colorFacet] });
  const buckets = (res.facets[colorFacet] as Array<{ value: string }> | undefined) ?? [];
  const byKey = new Map(buckets.map((b) => [COLOR_WORDS.get(normalizeText(b.value)) ?? normalizeText(b.value), b.value]));
  const colors = new Map<string, string>();
  for (const [word, key] of COLOR_WORDS) {
    const value = byKey.get(key);
    if (value) colors.set(word, value);
  }
  return colors;
}

/** A stored synonym row with every text normalized like queries are. */
function compileRule(r: SynonymRow): CompiledRuleInput {
  const n = (xs: string[] | undefined) => (xs ?? []).map((x) => normalizeText(x)).filter(Boolean);
  return {
    id: r.id,
    kind: r.kind,
    terms: n(r.terms),
    input: r.input ? normalizeText(r.input) : null,
    outputs: n(r.outputs),
    conditions: r.conditions ? { unless_terms: n(r.conditions.unless_terms), require_terms: n(r.conditions.require_terms) } : null,
    setKey: r.set_key,
    global: r.tenant_id === null,
  };
}
