import { canonicalJson } from '../platform/ids.js';
import type { EngineQuery, EngineResult, LexicalEngine } from '../engines/lexical/port.js';
import { ResultCache } from './result-cache.js';
import { jsonBytes } from './refreshing-cache.js';

type FacetValue = EngineResult['facets'][string];

/**
 * Facet counts per tenant, by what they count: the facet, the query's match set (words, prefix,
 * any-word) and every filter but the facet's own (counts are disjunctive), and the id
 * restrictions. A second page, another sort, or a refinement by one filter asks for counts already
 * made (the brand counts of "laptop" filtered by brand are those of "laptop"), so the engine counts
 * only the others. Dropped with the tenant's cached results (index, synonym, rule changes) and
 * older than `ttlMs` never used, as the results are; `ttlMs` 0 turns it off.
 */
export class FacetCache {
  private cache: ResultCache<FacetValue>;

  constructor(
    private ttlMs: number,
    maxBytes: number,
  ) {
    this.cache = new ResultCache<FacetValue>({ maxBytes, sizeOf: jsonBytes });
  }

  size(): { bytes: number; entries: number } {
    return this.cache.size();
  }

  clear(tenantId: string): void {
    this.cache.clear(tenantId);
  }

  /** `engine` with facet counts answered from this cache when they were counted before. */
  wrap(engine: LexicalEngine): LexicalEngine {
    if (this.ttlMs <= 0) return engine;
    const search = (q: EngineQuery) => this.search(engine, q);
    return new Proxy(engine, { get: (target, prop, receiver) => (prop === 'search' ? search : Reflect.get(target, prop, receiver)) });
  }

  private async search(engine: LexicalEngine, q: EngineQuery): Promise<EngineResult> {
    // Previews count nothing; a query left without facets would become one.
    if (!q.facets?.length || q.noTextRank) return engine.search(q);
    const since = this.cache.mark();
    const now = Date.now();
    const keys = new Map(q.facets.map((name) => [name, facetKey(q, name)]));
    const known = new Map<string, FacetValue>();
    for (const [name, key] of keys) {
      const hit = this.cache.entry(q.tenantId, key);
      if (hit && now - hit.at <= this.ttlMs) known.set(name, hit.value);
    }
    const missing = q.facets.filter((name) => !known.has(name));
    const res = await engine.search({ ...q, facets: missing });
    for (const name of missing) if (res.facets[name] !== undefined) this.cache.set(q.tenantId, keys.get(name)!, res.facets[name], since);
    const facets: EngineResult['facets'] = {};
    for (const name of q.facets) {
      const value = known.get(name) ?? res.facets[name];
      if (value !== undefined) facets[name] = value;
    }
    return { ...res, facets };
  }
}

/**
 * What a facet's counts depend on: the match set and every filter but the facet's own, or every
 * filter when they follow its own too (facetsFollowFilters). Without its own filter both count
 * the same rows, so they share the key; with it the key holds the filter, which a disjunctive key never does.
 */
function facetKey(q: EngineQuery, name: string): string {
  const own = q.facetsFollowFilters ? null : name === 'category_tree' ? 'category' : name;
  const filters = Object.fromEntries(Object.entries(q.filters ?? {}).filter(([n]) => n !== own));
  return canonicalJson([name, q.terms ?? q.tokens, q.prefixLast ?? false, q.matchAny ?? false, filters, q.ids ?? null, q.exclude ?? null]);
}
