import { AppError } from '../platform/errors.js';
import { canonicalJson, newId } from '../platform/ids.js';
import type { Notices } from '../platform/notices.js';
import type { LexicalEngine } from '../engines/lexical/port.js';
import { resolveRanking } from './ranking-config.js';
import { BUILTIN_FACETS } from './facets.js';
import { checkFacets, checkFilters, distinctNames, withoutEitherStock } from './search-checks.js';
import { RefreshingCache } from './refreshing-cache.js';
import { FacetCache } from './facet-cache.js';
import { degraded } from './degraded.js';
import { SEARCH_STEPS, type SearchInput, type SearchState, type SearchStep } from './steps/index.js';
import type { TenantContexts } from './tenant-context.js';
import type { SearchLogWriter } from './search-log.js';
import { assignmentOf, type Assignment, type MerchSnapshot, type MerchState } from './merch-state.js';
import type { Rewriter } from './rewrite/rewriter.js';
import type { QueryVectors } from '../vectors/index.js';
import type { ClickBoosts } from '../recommend/index.js';

export type { SearchInput } from './steps/index.js';
export type SearchBody = ReturnType<typeof respond>;

/**
 * A cached answer: its body, and its JSON text without search_id and took_ms and the opening brace.
 * `degraded`: a provider failed for it (degraded.ts); such an answer is not stored.
 */
export interface CachedSearch {
  body: SearchBody;
  tail: string;
  degraded: boolean;
}

export interface SearchServiceDeps {
  engine: LexicalEngine;
  contexts: TenantContexts;
  log: SearchLogWriter;
  notices: Notices;
  merch: MerchState;
  rewriter: Rewriter;
  /** Hybrid search's vector side and click learning (absent: neither). */
  vectors?: QueryVectors;
  clicks?: ClickBoosts;
}

/** Search (spec 4.6): the step list over one state, a result cache per process, a log row per shopper search. */
export class SearchService {
  /** Cached results (not those a provider failed for); dropped per tenant on index, synonym, context and vocabulary changes. */
  readonly results: RefreshingCache<CachedSearch>;
  /** Facet counts by match set and filters, for the searches the result cache misses (facet-cache.ts). */
  readonly facetCounts: FacetCache;
  /** The engine the steps use: facet counts made before come from `facetCounts`. */
  private engine: LexicalEngine;

  /** `cache.maxBytes`: the result cache's budget, all tenants together; facet counts get a quarter of it beside it. */
  constructor(
    private deps: SearchServiceDeps,
    cache: { ttlMs: number; maxBytes: number; writeGraceMs?: number },
    private steps: readonly SearchStep[] = SEARCH_STEPS,
  ) {
    // A cached search is its JSON text and its body's objects: about three times the text.
    this.results = new RefreshingCache(
      cache.ttlMs,
      { maxBytes: cache.maxBytes, sizeOf: (v) => 3 * (v.tail.length + 200) },
      cache.writeGraceMs ?? 0,
      'search',
      (v) => !v.degraded,
    );
    this.facetCounts = new FacetCache(cache.ttlMs, cache.maxBytes / 4);
    this.engine = this.facetCounts.wrap(deps.engine);
    const clear = (tenantId: string) => {
      this.results.clear(tenantId);
      this.facetCounts.clear(tenantId);
    };
    // A catalog write: with SEARCH_CACHE_WRITE_GRACE_MS the results stay answerable for that long while refreshed.
    deps.notices.on('index', (tenantId) => {
      this.results.changed(tenantId);
      this.facetCounts.clear(tenantId);
    });
    deps.notices.on('synonyms', clear);
    deps.notices.on('rules', clear);
    deps.notices.on('experiments', clear);
    deps.notices.on('vectors', clear);
    deps.contexts.onReplaced(clear);
  }

  /**
   * Answers from the result cache when it can (never for debug), else runs the steps; every
   * search is logged. A cached answer comes as JSON text already made (`text`): only its
   * search_id and took_ms are new, so the hot path does not serialize the hits again. A hot
   * query's entry is refreshed in the background as it nears its age limit (RefreshingCache).
   * An answer a provider failed for (the query embedding, the AI rewrite) is not cached, so the
   * same query asks the provider again once it is back.
   */
  async search(tenantId: string, input: SearchInput): Promise<{ body: SearchBody; text: string | null }> {
    const started = performance.now();
    input = withoutEitherStock(input);
    // Memory only: the compiled rules and the running experiment; the session picks the variant.
    const merch = await this.deps.merch.get(tenantId);
    const assignment = assignmentOf(merch, input.session);
    if (input.debug) {
      const body = await this.run(tenantId, input, merch, assignment);
      this.logSearch(tenantId, input, body, body.search_id, body.took_ms, assignment);
      return { body, text: null };
    }
    // The variant and the rules' time-window epoch are part of the key: a session never gets another
    // variant's cached answer, and a cached answer never outlives a rule's start or end.
    const key = canonicalJson([
      input.q,
      input.lang,
      input.page,
      input.perPage,
      input.filters,
      input.sort,
      input.facets,
      input.override,
      input.ai ?? 'auto',
      assignment?.variant ?? null,
      merch.rules.epoch(),
      // Only when set: /v1's keys stay as they were.
      ...(input.facetsFollowFilters ? ['facets-follow-filters'] : []),
    ]);
    // Set when this request ran the steps itself (a miss), not when it joined another's run or a background refresh.
    let ran = null as SearchBody | null;
    const cached = await this.results.get(tenantId, key, async () => {
      // Made here and filled in by run (degraded) and below: a miss allocates nothing more than before.
      const entry: CachedSearch = { body: undefined!, tail: '', degraded: false };
      const body = (ran = entry.body = await this.run(tenantId, input, merch, assignment, entry));
      const { search_id: _id, took_ms: _took, ...rest } = body;
      entry.tail = JSON.stringify(rest).slice(1);
      return entry;
    });
    if (ran) {
      this.logSearch(tenantId, input, ran, ran.search_id, ran.took_ms, assignment);
      return { body: ran, text: null };
    }
    const tookMs = Math.round((performance.now() - started) * 100) / 100;
    const searchId = newId('srch');
    this.logSearch(tenantId, input, cached.body, searchId, tookMs, assignment);
    return { body: cached.body, text: `{"search_id":"${searchId}","took_ms":${tookMs},${cached.tail}` };
  }

  private logSearch(tenantId: string, input: SearchInput, body: SearchBody, searchId: string, tookMs: number, assignment: Assignment | null) {
    if (input.log === false) return;
    const q = body.query;
    this.deps.log.push({
      id: searchId,
      tenant_id: tenantId,
      session: input.session,
      query: input.q,
      normalized: q.normalized,
      lang: q.lang,
      filters: { ...q.filters, ...input.filters },
      sort: input.sort ?? q.sort ?? 'relevance',
      total: body.total,
      page: input.page,
      took_ms: tookMs,
      zero_result: body.total === 0,
      experiment_id: assignment?.experiment_id ?? null,
      variant: assignment?.variant ?? null,
      shown: body.ids,
    });
  }

  /**
   * Runs the steps over a new state and returns the SearchResponse body; with debug, each step's
   * decisions and time. `out.degraded` is set when a provider failed for this answer.
   */
  private async run(
    tenantId: string,
    input: SearchInput,
    merch: MerchSnapshot,
    assignment: Assignment | null,
    out?: { degraded: boolean },
  ): Promise<SearchBody> {
    const started = performance.now();
    const ctx = await this.deps.contexts.get(tenantId);
    if (!ctx) throw new AppError('not_found', 404, 'tenant not found');
    const vocab = await this.deps.contexts.vocabularies.get(tenantId);
    const ranking = resolveRanking(ctx.ranking, input.override);
    checkFilters(input.filters, ctx);
    const facetNames = input.facets ? distinctNames(input.facets) : [...BUILTIN_FACETS.filter((f) => f !== 'category'), ...ctx.facetNames];
    checkFacets(facetNames, ctx);
    const s = { tenantId, input, ctx, vocab, ranking, facetNames, merch, assignment } as SearchState;
    const env = { engine: this.engine, rewriter: this.deps.rewriter, vectors: this.deps.vectors, clicks: this.deps.clicks };
    const trace: Array<Record<string, unknown>> | null = input.debug ? [] : null;
    for (const step of this.steps) {
      const t0 = trace ? performance.now() : 0;
      const pending = step.run(s, env);
      if (pending) await pending;
      if (trace) trace.push({ step: step.name, ms: Math.round((performance.now() - t0) * 1000) / 1000, ...step.trace?.(s) });
    }
    const body = respond(s, Math.round((performance.now() - started) * 100) / 100);
    if (out) out.degraded = degraded(s);
    if (trace) body.debug = { steps: trace, ranking: s.ranking, engine: this.deps.engine.name };
    return body;
  }
}

/** The SearchResponse body of a finished state. */
function respond(s: SearchState, tookMs: number) {
  const synonymsFired = s.segments.some((x) => x.ruleIds.length > 0);
  const ai = s.ai?.used ? s.ai : null;
  return {
    search_id: newId('srch'),
    query: {
      text: s.input.q,
      normalized: s.normalized,
      rewritten: synonymsFired ? describeSegments(s) : s.text !== s.normalized ? s.text : null,
      lang: s.lang,
      filters: foundFilters(s),
      sort: ai?.sort ?? s.rules?.sort ?? null,
      ai_used: !!ai,
      ai_cached: !!ai?.cached,
    },
    ids: s.hits.map((h) => h.id),
    hits: s.hits,
    total: s.result.total,
    page: s.input.page,
    per_page: s.input.perPage,
    facets: s.facets,
    did_you_mean: s.didYouMean,
    redirect: s.merchPlan?.redirect ?? null,
    banners: s.merchPlan?.banners ?? [],
    zero_result_help: s.zeroResultHelp,
    experiment: s.assignment ? { experiment_id: s.assignment.experiment_id, variant: s.assignment.variant } : null,
    took_ms: tookMs,
    debug: null as Record<string, unknown> | null,
  };
}

/** Filters the query's words gave (rule parser, then AI rewrite), without those an intent check dropped. */
function foundFilters(s: SearchState): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(s.rules?.filters ?? {}), ...(s.ai?.used ? s.ai.filters : {}) };
  for (const name of Object.keys(out)) if (!(name in s.query.filters!)) delete out[name];
  return out;
}

/** "laptop (notebook | portable computer) bag": the query with what synonyms added. */
function describeSegments(s: SearchState): string {
  return s.segments
    .map((x) => (x.expansions.length ? `${x.tokens.join(' ')} (${x.expansions.map((e) => e.join(' ')).join(' | ')})` : x.tokens.join(' ')))
    .join(' ');
}
