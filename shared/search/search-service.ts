import type { Deps } from '../deps.js';
import { AppError } from '../platform/errors.js';
import { canonicalJson, newId } from '../platform/ids.js';
import type { EngineQuery, EngineResult, FilterValue, QueryTerm } from '../engines/lexical/port.js';
import type { Vocabulary } from './vocabulary.js';
import { normalizeText, tokenize } from '../text/normalize.js';
import { detectLang } from '../text/language.js';
import { parseRules } from './rule-parser.js';
import { planQuery } from './query-plan.js';
import { resolveRanking } from './ranking-config.js';
import { BUILTIN_FACETS, BUILTIN_FILTERS, toFacets } from './facets.js';
import { highlight } from './highlight.js';
import { Trace } from './trace.js';
import { categoryIntent } from './category-intent.js';
import { narrowIntent, typicalWords } from './category-profile.js';
import type { Segment } from './synonym-matcher.js';
import type { TenantContexts, TenantSearchContext } from './tenant-context.js';
import type { SearchLogWriter } from './search-log.js';

export interface SearchInput {
  q: string;
  lang: string;
  page: number;
  perPage: number;
  filters: Record<string, FilterValue>;
  sort: EngineQuery['sort'] | null;
  facets: string[] | null;
  session: string | null;
  debug: boolean;
  override: Record<string, unknown> | null;
}

export type SearchBody = Awaited<ReturnType<SearchService['run']>>;

/** A cached answer: its body, and its JSON text without search_id and took_ms and the opening brace. */
export interface CachedSearch {
  body: SearchBody;
  tail: string;
}

/** Below this many strong all-words matches, products matching only some words fill in after them (10 cost a quarter of uncached throughput for +0.003 nDCG; 5 gives +0.0024). */
const FEW = 5;

export class SearchService {
  constructor(private deps: Deps, private contexts: TenantContexts, private log: SearchLogWriter) {}

  /**
   * Answers from the result cache when it can (never for debug), else runs the pipeline; every
   * search is logged. A cached answer comes as JSON text already made (`text`): only its
   * search_id and took_ms are new, so the hot path does not serialize the hits again. A hot
   * query's entry is refreshed in the background as it nears its age limit (RefreshingCache).
   */
  async search(tenantId: string, input: SearchInput): Promise<{ body: SearchBody; text: string | null }> {
    if (input.debug) {
      const body = await this.run(tenantId, input);
      this.logSearch(tenantId, input, body, body.search_id, body.took_ms);
      return { body, text: null };
    }
    const started = performance.now();
    const key = canonicalJson([input.q, input.lang, input.page, input.perPage, input.filters, input.sort, input.facets, input.override]);
    // Set when this request ran the pipeline itself (a miss), not when it joined another's run or a background refresh.
    let ran = null as SearchBody | null;
    const cached = await this.contexts.results.get(tenantId, key, async () => {
      const body = (ran = await this.run(tenantId, input));
      const { search_id: _id, took_ms: _took, ...rest } = body;
      return { body, tail: JSON.stringify(rest).slice(1) };
    });
    if (ran) {
      this.logSearch(tenantId, input, ran, ran.search_id, ran.took_ms);
      return { body: ran, text: null };
    }
    const tookMs = Math.round((performance.now() - started) * 100) / 100;
    const searchId = newId('srch');
    this.logSearch(tenantId, input, cached.body, searchId, tookMs);
    return { body: cached.body, text: `{"search_id":"${searchId}","took_ms":${tookMs},${cached.tail}` };
  }

  private logSearch(tenantId: string, input: SearchInput, body: SearchBody, searchId: string, tookMs: number) {
    const q = body.query;
    this.log.push({
      id: searchId, tenant_id: tenantId, session: input.session, query: input.q, normalized: q.normalized, lang: q.lang,
      filters: { ...q.filters, ...input.filters }, sort: input.sort ?? q.sort ?? 'relevance', total: body.total, page: input.page, took_ms: tookMs, zero_result: body.total === 0,
    });
  }

  /** Runs the query pipeline (DESIGN.md "Search path") and returns the SearchResponse body. */
  private async run(tenantId: string, input: SearchInput) {
    const started = performance.now();
    const trace = new Trace(input.debug);
    const ctx = await this.context(tenantId);
    const vocab = await this.contexts.vocabularies.get(tenantId);
    const ranking = resolveRanking(ctx.ranking, input.override);
    checkFilters(input.filters, ctx);
    const facetNames = input.facets ?? [...BUILTIN_FACETS.filter((f) => f !== 'category'), ...ctx.facetNames];
    checkFacets(facetNames, ctx);

    const lang = trace.step('language', () => detectLang(input.q, input.lang, ctx.locales, ctx.defaultLocale), (l) => ({ lang: l }));
    if (!ctx.locales.includes(lang)) throw new AppError('validation_failed', 400, `lang ${lang} is not one of this store's locales (${ctx.locales.join(', ')})`, [{ in: 'query', field: 'lang', code: 'invalid_value', message: 'not a tenant locale' }]);
    const normalized = trace.step('normalize', () => normalizeText(input.q), (n) => ({ normalized: n }));
    const rules = ranking.rule_parser ? trace.step('rule_parser', () => parseRules(normalized, ctx.rules), (r) => ({ fired: r.fired, rest: r.rest })) : null;
    const filters: Record<string, FilterValue> = { ...(rules?.filters as Record<string, FilterValue> | undefined), ...input.filters };
    const sort = input.sort ?? rules?.sort ?? 'relevance';
    const text = rules ? rules.rest : normalized;
    const tokens = trace.step('tokenize', () => tokenize(text), (t) => ({ tokens: t }));
    const segments = trace.step('synonyms', () => (ctx.synonyms.size ? ctx.synonyms.apply(tokens, { sets: new Set(ranking.synonym_sets), global: ranking.global_synonyms }) : []),
      (segs) => ({ fired: segs.flatMap((x) => x.ruleIds), expansions: segs.filter((x) => x.expansions.length).map((x) => ({ words: x.tokens.join(' '), also: x.expansions.map((e) => e.join(' ')) })) }));
    const synonymsFired = segments.some((x) => x.ruleIds.length);
    const plan = trace.step('plan', () => planQuery({
      tokens, segments, terms: vocab.terms, typoTolerance: ranking.typo_tolerance,
      correct: (word) => vocab.typos.correction(word),
    }), (p) => ({ corrections: p.corrections, compounds: p.compounds }));

    const intent = trace.step('category_intent', () => narrowIntent(tokens, categoryIntent(tokens, ctx.categories), ctx.profiles), (c) => ({ categories: c }));
    const typical = trace.step('typical_products', () => typicalWords(tokens, intent, ctx.profiles), (w) => ({ words: w }));
    const query: EngineQuery = {
      // A finished catalog word is taken as typed; only a word the catalog does not know may be a prefix.
      tenantId, tokens, terms: plan.terms, preferFirstAlternative: synonymsFired, prefixLast: tokens.length > 0 && !vocab.terms.has(tokens[tokens.length - 1]), filters, sort,
      offset: (input.page - 1) * input.perPage, limit: input.perPage, facets: facetNames,
      boost: { inStockFirst: ranking.in_stock_first, popularity: ranking.business_signals.popularity ?? 0, margin: ranking.business_signals.margin ?? 0, categories: intent, typical },
    };
    let result = await trace.stepAsync('engine', () => this.deps.engine.search(query), (r) => ({ total: r.total, strong: r.strong }));
    let relaxed = false;
    // Few strong matches (EngineHit.strong): products matching some of the words fill in.
    const strong = result.strong ?? result.total;
    if (strong < FEW && plan.terms.length > 1) {
      const any = await trace.stepAsync('fallback_any_term', () => this.deps.engine.search({ ...query, terms: markCommon(plan.terms, vocab), matchAny: true }), (r) => ({ total: r.total }));
      if (any.total > strong) {
        relaxed = result.total === 0;
        result = mergeFallback(result, any, query);
      }
    }
    const zeroHelp = result.total === 0 || relaxed ? await this.zeroResultHelp(ctx, relaxed, text) : null;
    const hits = result.hits.map((h) => ({
      id: h.id,
      score: Math.round(h.score * 1e6) / 1e6,
      product: h.card,
      highlights: highlights(h, lang, plan.terms.flatMap((t) => t.alternatives.flat()), tokens[tokens.length - 1] ?? null),
      pinned: false,
    }));
    const didYouMean = plan.corrections.length ? applyCorrections(text, plan.corrections) : null;
    const tookMs = Math.round((performance.now() - started) * 100) / 100;
    const searchId = newId('srch');
    return {
      search_id: searchId,
      query: {
        text: input.q, normalized, rewritten: synonymsFired ? describeSegments(segments) : rules && rules.rest !== normalized ? rules.rest : null, lang,
        filters: rules?.filters ?? {}, sort: rules?.sort ?? null, ai_used: false, ai_cached: false,
      },
      ids: hits.map((h) => h.id),
      hits,
      total: result.total,
      page: input.page,
      per_page: input.perPage,
      facets: toFacets(facetNames, result.facets),
      did_you_mean: didYouMean,
      redirect: null,
      banners: [],
      zero_result_help: zeroHelp,
      experiment: null,
      took_ms: tookMs,
      debug: input.debug ? { steps: trace.steps, ranking, engine: this.deps.engine.name } : null,
    };
  }

  async context(tenantId: string): Promise<TenantSearchContext> {
    const ctx = await this.contexts.get(tenantId);
    if (!ctx) throw new AppError('not_found', 404, 'tenant not found');
    return ctx;
  }

  private async zeroResultHelp(ctx: TenantSearchContext, relaxed: boolean, text: string) {
    return {
      relaxed,
      relaxed_query: relaxed ? text : null,
      popular_categories: ctx.popularCategories.slice(0, 5),
    };
  }
}

function checkFilters(filters: Record<string, FilterValue>, ctx: TenantSearchContext) {
  const unknown = Object.keys(filters).filter((n) => !BUILTIN_FILTERS.has(n) && !ctx.facetNames.has(n));
  if (unknown.length) {
    throw new AppError('unknown_filter', 400, `unknown filter: ${unknown.join(', ')} (known: ${[...BUILTIN_FILTERS, ...ctx.facetNames].join(', ')})`,
      unknown.map((n) => ({ in: 'query', field: `filter[${n}]`, code: 'unknown_filter', message: 'not a filterable attribute' })));
  }
}

function checkFacets(names: string[], ctx: TenantSearchContext) {
  const unknown = names.filter((n) => !(BUILTIN_FACETS as readonly string[]).includes(n) && !ctx.facetNames.has(n));
  if (unknown.length) {
    throw new AppError('unknown_facet', 400, `unknown facet: ${unknown.join(', ')}`, unknown.map((n) => ({ in: 'query', field: 'facets', code: 'unknown_facet', message: `${n} is not a facet` })));
  }
}

/**
 * The terms with the common ones marked (Vocabulary.isCommon), when another term is rarer and in
 * the catalog's words: "iphone x" falls back to the iPhones, not to every "1920 x 1080" screen.
 */
function markCommon(terms: QueryTerm[], vocab: Vocabulary): QueryTerm[] {
  const common = terms.map((t) => t.alternatives.every((a) => a.every((w) => vocab.isCommon(w))));
  const anchored = terms.some((t, i) => !common[i] && t.alternatives.some((a) => a.every((w) => vocab.terms.has(w))));
  return anchored ? terms.map((t, i) => (common[i] ? { ...t, common: true } : t)) : terms;
}

/** Strong all-words hits first, then the any-word hits that are not among them (weak all-words hits take their any-word place). */
function mergeFallback(all: EngineResult, any: EngineResult, q: EngineQuery): EngineResult {
  const first = all.hits.filter((h) => h.strong !== false);
  const seen = new Set(first.map((h) => h.id));
  const hits = [...first, ...any.hits.filter((h) => !seen.has(h.id))].slice(0, q.limit);
  return { total: any.total, hits, facets: any.facets };
}

function highlights(hit: EngineResult['hits'][number], lang: string, words: string[], last: string | null) {
  const out: Record<string, string> = {};
  const name = hit.card.name[lang] ?? Object.values(hit.card.name)[0];
  const n = name ? highlight(name, words, last) : null;
  if (n) out.name = n;
  const desc = hit.description?.[lang] ?? (hit.description ? Object.values(hit.description)[0] : undefined);
  const d = desc ? highlight(desc, words, null) : null;
  if (d) out.description = d;
  return out;
}

/** "laptop (notebook | portable computer) bag": the query with what synonyms added. */
function describeSegments(segments: Segment[]): string {
  return segments.map((x) => (x.expansions.length ? `${x.tokens.join(' ')} (${x.expansions.map((e) => e.join(' ')).join(' | ')})` : x.tokens.join(' '))).join(' ');
}

function applyCorrections(text: string, corrections: Array<{ from: string; to: string }>): string {
  const map = new Map(corrections.map((c) => [c.from, c.to]));
  return tokenize(text).map((t) => map.get(t) ?? t).join(' ');
}
