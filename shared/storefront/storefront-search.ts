import { AppError } from '../platform/errors.js';
import type { SearchBody, SearchInput, SuggestInput } from '../search/index.js';
import { isBilledQuery } from './billing.js';
import { facetRequest, toAlgoliaFacets } from './facets.js';
import { toFilters } from './filters.js';
import { paramsString, parseParams, type AlgoliaParams } from './params.js';
import { parseIndexName, type IndexTarget } from './protocol.js';
import { facetValuesResult, productsResult, productSuggestionsResult, querySuggestionsResult, sessionOf, type SuggestBody } from './response.js';

/** What the storefront endpoint uses: the search and suggest services and the store's facet attributes. */
export interface StorefrontSearchDeps {
  search(tenantId: string, input: SearchInput): Promise<{ body: SearchBody; text: string | null }>;
  suggest(tenantId: string, input: SuggestInput): Promise<string>;
  facetNames(tenantId: string): Promise<Set<string>>;
}

/** One request of a multi-query: `indexName`, `type`, and parameters as a `params` string and/or fields. */
export type QueryRequest = Record<string, unknown> & { indexName?: unknown; type?: unknown };

interface Parsed {
  index: string;
  target: IndexTarget;
  type: 'default' | 'facet';
  p: AlgoliaParams;
  params: string;
}

export interface QueryOutcome {
  result: Record<string, unknown>;
  /** Counted as a billed search (billing.ts). */
  billed: boolean;
}

/**
 * The Algolia search protocol over the service's own search and suggest: every products query
 * runs the same search path as /v1/search (rules, synonyms, ranking, the Arabic layer).
 */
export class StorefrontSearch {
  constructor(private deps: StorefrontSearchDeps) {}

  /**
   * Answers the requests in order. All are checked before any runs (one bad request: 400 for
   * the call); queries on suggestions indices with the same text share one suggest call.
   */
  async multi(tenantId: string, requests: QueryRequest[]): Promise<QueryOutcome[]> {
    const parsed = requests.map((r, i) => parse(r, `requests.${i}`));
    const limits = suggestLimits(parsed);
    const suggestions = new Map<string, Promise<SuggestBody>>();
    const suggest = (q: string) => {
      let pending = suggestions.get(q);
      if (!pending) suggestions.set(q, (pending = this.deps.suggest(tenantId, { q, ...limits }).then((t) => JSON.parse(t) as SuggestBody)));
      return pending;
    };
    return Promise.all(parsed.map((q) => this.run(tenantId, q, suggest)));
  }

  /** A single-index query (`POST /1/indexes/{index}/query`). */
  async single(tenantId: string, index: string, request: QueryRequest): Promise<QueryOutcome> {
    const [outcome] = await this.multi(tenantId, [{ ...request, indexName: index }]);
    return outcome;
  }

  private async run(tenantId: string, q: Parsed, suggest: (q: string) => Promise<SuggestBody>): Promise<QueryOutcome> {
    const { target, p } = q;
    const billed = isBilledQuery(target, p, q.type);
    if (target.kind !== 'products') {
      if (q.type === 'facet') throw new AppError('unsupported_query', 400, 'suggestions indices have no facets');
      const body = await suggest(p.query);
      const result =
        target.kind === 'query_suggestions'
          ? querySuggestionsResult(body, p, q.params, q.index)
          : productSuggestionsResult(body, p, q.params, q.index, lang(p) === 'auto' ? (/[\u0600-\u06FF]/.test(p.query) ? 'ar' : 'en') : lang(p));
      return { result, billed };
    }
    const known = await this.deps.facetNames(tenantId);
    const facetNames = q.type === 'facet' ? [p.facet ?? ''] : p.facets;
    const facets = facetRequest(facetNames, known);
    const input: SearchInput = {
      q: p.query,
      lang: lang(p),
      page: q.type === 'facet' ? 1 : p.page + 1,
      perPage: q.type === 'facet' ? 0 : Math.min(p.hitsPerPage, 100),
      filters: toFilters(p),
      sort: target.sort,
      facets: facets.names,
      session: p.userToken ? sessionOf(p.userToken) : null,
      debug: false,
      override: null,
      log: q.type === 'default' && p.analytics,
    };
    const { body, text } = await this.deps.search(tenantId, input);
    // A cached answer comes as JSON text carrying this search's own id.
    const answer = text ? (JSON.parse(text) as SearchBody) : body;
    if (q.type === 'facet') {
      const f = toAlgoliaFacets(answer.facets, facets.asked, 1000, answer.query.lang);
      return { result: facetValuesResult(f.facets[p.facet ?? ''] ?? {}, p, f.categoryLabels, answer.took_ms), billed };
    }
    return { result: productsResult(answer, p, q.params, q.index, facets), billed };
  }
}

function parse(request: QueryRequest, field: string): Parsed {
  if (!request || typeof request !== 'object') throw invalid(field, 'a request is an object with indexName and params');
  const index = request.indexName;
  if (typeof index !== 'string') throw invalid(`${field}.indexName`, 'indexName is required');
  const target = parseIndexName(index);
  if (!target) throw invalid(`${field}.indexName`, 'index names are 1-200 letters, digits, _ . -');
  const type = request.type === undefined || request.type === 'default' ? 'default' : request.type === 'facet' ? 'facet' : null;
  if (!type) throw invalid(`${field}.type`, 'type is "default" or "facet"');
  const { params, raw } = parseParams(request, field);
  if (type === 'facet' && !params.facet) throw invalid(`${field}.facet`, 'a facet query names its facet');
  if ((params.page + 1) * Math.max(1, Math.min(params.hitsPerPage, 100)) > 100_000) throw invalid(`${field}.page`, 'pages end at 100,000 hits');
  return { index, target, type, p: params, params: paramsString(raw) };
}

/** The search language: `queryLanguages[0]` when it is a two-letter code, else auto (Arabic script picks Arabic). */
function lang(p: AlgoliaParams): string {
  const first = p.queryLanguages?.[0];
  return first && /^[a-z]{2}$/.test(first) ? first : 'auto';
}

/** One suggest call answers every suggestions query of a call: as many completions and previews as the largest asks. */
function suggestLimits(parsed: Parsed[]): Omit<SuggestInput, 'q'> {
  let limit = 1;
  let products = 0;
  for (const q of parsed) {
    if (q.target.kind === 'query_suggestions') limit = Math.max(limit, Math.min(q.p.hitsPerPage, 20));
    if (q.target.kind === 'product_suggestions') products = Math.max(products, Math.min(q.p.hitsPerPage, 10));
  }
  return { limit, products };
}

function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', 400, `invalid request: ${field}: ${message}`, [{ in: 'body', field, code: 'invalid_value', message }]);
}
