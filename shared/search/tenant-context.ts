import type { Knex } from 'knex';
import type { Repos } from '../repos.js';
import type { LexicalEngine, ProductCard } from '../engines/lexical/port.js';
import { labelLang, normalizeText } from '../text/normalize.js';
import { COLOR_WORDS, type RuleContext } from './rule-parser.js';
import { buildCategoryIndex, type CategoryWordIndex } from './category-intent.js';
import { SynonymMatcher, type CompiledRuleInput } from './synonym-matcher.js';
import type { Redis } from 'ioredis';
import { TenantCache } from './tenant-cache.js';
import { SuggestDictionary } from './suggest-dictionary.js';
import { Vocabulary } from './vocabulary.js';
import { RefreshingCache } from './refreshing-cache.js';
import type { CachedSearch } from './search-service.js';
import type { LoadedProfile } from './category-profile.js';

/** What the search path needs about a tenant, kept in process and refreshed in the background. */
export interface TenantSearchContext {
  tenantId: string;
  locales: string[];
  defaultLocale: string;
  ranking: Record<string, unknown>;
  /** Filter and facet names beyond the built-in ones: the mapped facet attributes. */
  facetNames: Set<string>;
  rules: RuleContext;
  categories: CategoryWordIndex;
  /** What each category's products are called (category targets as keys). */
  profiles: Map<string, LoadedProfile>;
  synonyms: SynonymMatcher;
  /** The tenant's biggest categories, for zero-result help (from the suggestion dictionary, no search needed). */
  popularCategories: Array<{ value: string; label: Record<string, string> | null; count: number }>;
  loadedAt: number;
}

const COLOR_NAMES = new Set(['color', 'colour', 'لون']);

/** Age limit of suggest's product previews (at least the result cache's). */
const PREVIEW_TTL_MS = 5 * 60_000;

/**
 * Per-process cache of tenant search contexts. A fresh entry is served from memory; a stale
 * one is still served while one reload runs in the background, so searches never wait on it
 * except the very first time.
 */
export class TenantContexts {
  private entries = new Map<string, TenantSearchContext>();
  private loading = new Map<string, Promise<TenantSearchContext | null>>();

  constructor(private deps: { db: Knex; repos: Repos; engine: LexicalEngine }, resultTtlMs = 60_000, private ttlMs = 5 * 60_000) {
    this.results = new RefreshingCache(resultTtlMs);
    // Index changes drop previews at once; their age limit only covers a missed notice, so it can be long.
    this.previews = new RefreshingCache(resultTtlMs > 0 ? Math.max(resultTtlMs, PREVIEW_TTL_MS) : 0);
    // The context's brands and categories come from the dictionary: a new one rebuilds the context.
    this.dictionaries = new TenantCache(async (id) => new SuggestDictionary(await deps.repos.vocabulary.suggestTerms(id)), { replaced: (id) => this.expire(id) });
    // Cached results carry corrections and did-you-mean from the vocabulary they were made with.
    this.vocabularies = new TenantCache(async (id) => {
      const { terms, products } = await deps.repos.vocabulary.terms(id);
      return new Vocabulary(terms, products);
    }, { replaced: (id) => this.results.clear(id) });
  }

  async get(tenantId: string): Promise<TenantSearchContext | null> {
    const entry = this.entries.get(tenantId);
    if (entry) {
      if (Date.now() - entry.loadedAt > this.ttlMs) void this.reload(tenantId).catch(() => undefined);
      return entry;
    }
    return this.reload(tenantId);
  }

  /**
   * Rebuilds a held context now, then drops the results made with the old one. A load already
   * running may have read the old data: the rebuild starts after it.
   */
  private expire(tenantId: string): void {
    if (!this.entries.has(tenantId)) return;
    const running = this.loading.get(tenantId);
    const rebuilt = running ? running.catch(() => null).then(() => this.reload(tenantId, true)) : this.reload(tenantId, true);
    void rebuilt.then(() => this.results.clear(tenantId), () => undefined);
  }

  /** Drops a tenant's entry (after mapping or settings changes in this process). */
  forget(tenantId: string): void {
    this.entries.delete(tenantId);
  }

  /** Cached search results; dropped with the context, and on index changes. */
  readonly results: RefreshingCache<CachedSearch>;

  /** Suggest's product previews; dropped on index changes like results. */
  readonly previews: RefreshingCache<ProductCard[]>;

  /** Suggest's in-memory dictionaries; reloaded in the background on vocabulary changes. */
  readonly dictionaries: TenantCache<SuggestDictionary>;

  /** The search path's vocabulary and typo index; reloaded in the background on vocabulary changes. */
  readonly vocabularies: TenantCache<Vocabulary>;

  /**
   * Follows the notices (message: tenant id, or * for global synonym rules): synonyms changed
   * drops the tenant's context and results; index changed drops its results and previews;
   * vocabulary changed reloads its dictionary and vocabulary (a new dictionary rebuilds the
   * context); context changed (a new mapping serves) rebuilds the context.
   */
  async listen(sub: Redis, channels: { synonyms: string; index: string; vocabulary: string; context: string }): Promise<void> {
    sub.on('message', (ch: string, tenantId: string) => {
      if (ch === channels.vocabulary) {
        this.dictionaries.changed(tenantId);
        this.vocabularies.changed(tenantId);
      }
      if (ch === channels.index) {
        this.results.clear(tenantId);
        this.previews.clear(tenantId);
      }
      if (ch === channels.context) this.expire(tenantId);
      if (ch !== channels.synonyms) return;
      this.results.clear(tenantId);
      if (tenantId === '*') this.entries.clear();
      else this.entries.delete(tenantId);
    });
    await sub.subscribe(channels.synonyms, channels.index, channels.vocabulary, channels.context);
  }

  /** `catalogChanged`: the catalog's values (colours) are read again too, not only settings and rules. */
  private reload(tenantId: string, catalogChanged = false): Promise<TenantSearchContext | null> {
    let p = this.loading.get(tenantId);
    if (!p) {
      p = this.load(tenantId, catalogChanged).finally(() => this.loading.delete(tenantId));
      this.loading.set(tenantId, p);
    }
    return p;
  }

  private async load(tenantId: string, catalogChanged: boolean): Promise<TenantSearchContext | null> {
    const { repos, engine, db } = this.deps;
    const tenant = await repos.tenants.find(tenantId);
    if (!tenant) return null;
    const [mapping, dictionary, profiles, ruleRows] = await Promise.all([
      repos.mappings.get(tenantId),
      this.dictionaries.get(tenantId),
      repos.vocabulary.categoryProfiles(tenantId),
      db('synonyms').where({ enabled: true }).andWhere((w) => w.where({ tenant_id: tenantId }).orWhereNull('tenant_id')),
    ]);
    const brandRows = dictionary.entriesOf('brand');
    const categoryRows = dictionary.entriesOf('category');
    const facetNames = new Set(mapping.items.filter((i) => i.facet ?? true).map((i) => i.canonical_name));
    const colorFacet = [...facetNames].find((n) => COLOR_NAMES.has(n.toLowerCase())) ?? null;
    // The colour values need a facet count over the whole catalog: read again only when the
    // catalog changed (a new suggestion dictionary) or the colour attribute did, not on every refresh.
    const prev = this.entries.get(tenantId);
    const keep = prev && !catalogChanged && prev.rules.colorFacet === colorFacet;
    const colors = keep ? prev.rules.colors : new Map<string, string>();
    if (colorFacet && !keep) {
      const res = await engine.search({ tenantId, tokens: [], offset: 0, limit: 0, facets: [colorFacet] });
      const buckets = (res.facets[colorFacet] as Array<{ value: string }> | undefined) ?? [];
      const byKey = new Map(buckets.map((b) => [COLOR_WORDS.get(normalizeText(b.value)) ?? normalizeText(b.value), b.value]));
      for (const [word, key] of COLOR_WORDS) {
        const value = byKey.get(key);
        if (value) colors.set(word, value);
      }
    }
    const entry: TenantSearchContext = {
      tenantId,
      locales: tenant.locales,
      defaultLocale: tenant.default_locale,
      ranking: ((tenant.settings as { ranking?: Record<string, unknown> }).ranking) ?? {},
      facetNames,
      categories: buildCategoryIndex(categoryRows),
      profiles,
      popularCategories: categoryRows.filter((r) => r.target).slice(0, 10)
        .map((r) => ({ value: r.target!, label: { [labelLang(r.display)]: r.display }, count: r.weight })),
      synonyms: new SynonymMatcher(ruleRows.map(compileRule)),
      rules: { brands: new Map(brandRows.map((r) => [r.norm, r.display])), colors, colorFacet },
      loadedAt: Date.now(),
    };
    this.entries.set(tenantId, entry);
    return entry;
  }
}

/** A stored synonym row with every text normalized like queries are. */
function compileRule(r: {
  id: string; tenant_id: string | null; kind: 'equivalent' | 'one_way'; terms: string[]; input: string | null; outputs: string[];
  conditions: { unless_terms?: string[]; require_terms?: string[] } | null; set_key: string;
}): CompiledRuleInput {
  const n = (xs: string[] | undefined) => (xs ?? []).map((x) => normalizeText(x)).filter(Boolean);
  return {
    id: r.id, kind: r.kind, terms: n(r.terms), input: r.input ? normalizeText(r.input) : null, outputs: n(r.outputs),
    conditions: r.conditions ? { unless_terms: n(r.conditions.unless_terms), require_terms: n(r.conditions.require_terms) } : null,
    setKey: r.set_key, global: r.tenant_id === null,
  };
}
