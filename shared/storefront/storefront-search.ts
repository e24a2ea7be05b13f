import { AppError } from '../platform/errors.js';
import { BUILTIN_FILTERS, type SearchBody, type SearchInput, type SuggestInput } from '../search/index.js';
import { isBilledQuery } from './billing.js';
import { LEAF_LOOKUPS, leafLevels, levelKeyOf, type CategoryEntries } from './category-levels.js';
import { facetRequest, toAlgoliaFacets } from './facets.js';
import { toFilters, unsupported, type FilterParam } from './filters.js';
import { paramsString, parseParams, type AlgoliaParams } from './params.js';
import { parseIndexName, type IndexTarget } from './protocol.js';
import {
  facetValuesResult,
  productsResult,
  productSuggestionsResult,
  querySuggestionsResult,
  sessionOf,
  SUGGESTIONS_CAP,
  type SuggestBody,
} from './response.js';

/** What the storefront endpoint uses: the search and suggest services and the store's facet attributes. */
export interface StorefrontSearchDeps {
  search(tenantId: string, input: SearchInput): Promise<{ body: SearchBody; text: string | null }>;
  suggest(tenantId: string, input: SuggestInput): Promise<string>;
  facetNames(tenantId: string): Promise<Set<string>>;
  /** The store's locales: `queryLanguages` picks the first of them. */
  locales(tenantId: string): Promise<string[]>;
  /** The store's suggestion dictionary (in memory): category labels in every language, for label paths. */
  categories(tenantId: string): Promise<CategoryEntries>;
}

/** Pages the search answers (/v1/search's page 1 to 1,000): `page` 0 to 999 here. */
const SEARCH_PAGES = 1000;

/** One request of a multi-query: `indexName`, `type`, and parameters as a `params` string and/or fields. */
export type QueryRequest = Record<string, unknown> & { indexName?: unknown; type?: unknown };

interface Parsed {
  /** `requests.<i>`: where errors about this request point. */
  field: string;
  index: string;
  target: IndexTarget;
  type: 'default' | 'facet';
  p: AlgoliaParams;
  params: string;
}

/** Refuses a call (throws) given how many of its queries are billed, before any runs. */
type Admit = (billed: number) => Promise<void>;

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
   * the call), then `admit` is given how many of them are billed (it throws to refuse the call,
   * before anything runs); queries on suggestions indices with the same text share one suggest call.
   */
  async multi(tenantId: string, requests: QueryRequest[], admit?: Admit): Promise<QueryOutcome[]> {
    return this.answer(
      tenantId,
      requests.map((r, i) => parse(r, `requests.${i}`)),
      admit,
    );
  }

  /** A single-index query (`POST /1/indexes/{index}/query`). */
  async single(tenantId: string, index: string, request: QueryRequest, admit?: Admit): Promise<QueryOutcome> {
    const [outcome] = await this.multi(tenantId, [{ ...request, indexName: index }], admit);
    return outcome;
  }

  /** searchForFacetValues on one facet (`POST /1/indexes/{index}/facets/{facet}/query`): a `type: 'facet'` request, errors at `body.<param>`. */
  async facetValues(tenantId: string, index: string, facet: string, request: QueryRequest, admit?: Admit): Promise<QueryOutcome> {
    const [outcome] = await this.answer(tenantId, [parse({ ...request, indexName: index, type: 'facet', facet }, 'body')], admit);
    return outcome;
  }

  private async answer(tenantId: string, parsed: Parsed[], admit?: Admit): Promise<QueryOutcome[]> {
    if (admit) await admit(parsed.filter((q) => isBilledQuery(q.target, q.p, q.type)).length);
    const limits = suggestLimits(parsed);
    const suggestions = new Map<string, Promise<SuggestBody>>();
    const suggest = (q: string) => {
      let pending = suggestions.get(q);
      if (!pending) suggestions.set(q, (pending = this.deps.suggest(tenantId, { q, ...limits }).then((t) => JSON.parse(t) as SuggestBody)));
      return pending;
    };
    return Promise.all(parsed.map((q) => this.run(tenantId, q, suggest)));
  }

  private async run(tenantId: string, q: Parsed, suggest: (q: string) => Promise<SuggestBody>): Promise<QueryOutcome> {
    const { target, p } = q;
    const billed = isBilledQuery(target, p, q.type);
    const searchLang = lang(p, await this.deps.locales(tenantId));
    if (target.kind !== 'products') {
      if (q.type === 'facet') throw new AppError('unsupported_query', 400, 'suggestions indices have no facets');
      const body = await suggest(p.query);
      const result =
        target.kind === 'query_suggestions'
          ? querySuggestionsResult(body, p, q.params, q.index)
          : productSuggestionsResult(body, p, q.params, q.index, searchLang === 'auto' ? (/[\u0600-\u06FF]/.test(p.query) ? 'ar' : 'en') : searchLang);
      return { result, billed };
    }
    const known = await this.deps.facetNames(tenantId);
    const facetNames = q.type === 'facet' ? [p.facet ?? ''] : p.facets;
    const facets = facetRequest(facetNames, known);
    // Label paths in another language than the keys' are read from the dictionary (only when a level is filtered on).
    const levelKey = mentionsLevels(p) ? levelKeyOf(await this.deps.categories(tenantId)) : undefined;
    let { filters, from, leaves } = toFilters(p, { field: q.field, levelKey });
    // A leaf category ANDed with a level: its products tell which levels it is in (one free search a leaf).
    if (leaves.length > LEAF_LOOKUPS)
      throw unsupported(`${q.field}.${from.category}`, `at most ${LEAF_LOOKUPS} leaf categories (category:<id>) ANDed with a category level`);
    if (leaves.length) ({ filters, from } = toFilters(p, { field: q.field, levelKey, leafLevels: await leafLevels(this.deps.search, tenantId, leaves) }));
    checkAttributes(filters, from, known, q.field);
    // A page past the search's last one has no hits; its counts and facets are those of any page (Algolia answers it so).
    const hitless = q.type === 'facet' || p.page >= SEARCH_PAGES;
    const input: SearchInput = {
      q: p.query,
      lang: searchLang,
      page: hitless ? 1 : p.page + 1,
      perPage: hitless ? 0 : Math.min(p.hitsPerPage, 100),
      filters,
      sort: target.sort,
      facets: facets.names,
      session: p.userToken ? sessionOf(p.userToken) : null,
      debug: false,
      override: null,
      log: !hitless && p.analytics,
      // Algolia counts facets over the matches, under every filter (the helper sends its own queries for disjunctive facets).
      facetsFollowFilters: true,
    };
    const { body, text } = await this.deps.search(tenantId, input).catch((e: unknown) => {
      throw protocolError(e, q.field, from);
    });
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
  return { field, index, target, type, p: params, params: paramsString(raw) };
}

/**
 * The search language: the first of `queryLanguages` that is one of the store's locales, else auto
 * (Arabic script picks Arabic). Algolia reads the list as a hint: a language the store does not have is skipped.
 */
function lang(p: AlgoliaParams, locales: string[]): string {
  return p.queryLanguages?.find((code) => locales.includes(code)) ?? 'auto';
}

/** Whether a filter names a category level (`categories.lvlN`). */
function mentionsLevels(p: AlgoliaParams): boolean {
  return [p.facetFilters, p.filters].some((f) => f !== undefined && JSON.stringify(f).includes('categories.lvl'));
}

/** 400 unknown_filter for an attribute the store does not filter on, at the parameter that names it. */
function checkAttributes(filters: Record<string, unknown>, from: Record<string, FilterParam>, known: Set<string>, field: string) {
  const unknown = Object.keys(filters).filter((n) => !BUILTIN_FILTERS.has(n) && !known.has(n));
  if (!unknown.length) return;
  const details = unknown.map((n) => ({ in: 'body', field: `${field}.${from[n]}`, code: 'unknown_filter', message: `${n} is not a filterable attribute` }));
  const filterable = ['brand', 'categories.lvl0 ...', 'category', 'price', 'in_stock', ...known].join(', ');
  throw new AppError('unknown_filter', 400, `${details[0].field}: unknown filter attribute ${unknown.join(', ')} (filterable: ${filterable})`, details);
}

/** The search's own names of its parameters, as the protocol calls them. */
const PARAM_NAMES: Record<string, string> = { q: 'query', lang: 'queryLanguages', page: 'page', per_page: 'hitsPerPage', facets: 'facets', sort: 'indexName' };

/** An error of the search with its details at `requests.<i>.<param>` (the protocol's names, not /v1's). */
function protocolError(e: unknown, field: string, from: Record<string, FilterParam>): unknown {
  if (!(e instanceof AppError) || !Array.isArray(e.details) || !e.details.length) return e;
  const details = e.details.map((d) => {
    const attribute = /^filter\[(.+)\]$/.exec(d.field)?.[1];
    const param = attribute !== undefined ? (from[attribute] ?? 'filters') : (PARAM_NAMES[d.field] ?? d.field);
    return { ...d, in: 'body', field: `${field}.${param}` };
  });
  return new AppError(e.code, e.status, `${details[0].field}: ${details[0].message}`, details, e.headers);
}

/**
 * One suggest call answers every suggestions query of a call. Each suggestions index is the whole
 * list suggest gives (SUGGESTIONS_CAP), so nbHits and nbPages are the same on every page: all the
 * completions (from memory) and all the previews (one engine query, cached by the typed words) are asked.
 */
function suggestLimits(parsed: Parsed[]): Omit<SuggestInput, 'q'> {
  const asks = (kind: IndexTarget['kind']) => parsed.some((q) => q.target.kind === kind);
  return {
    limit: asks('query_suggestions') ? SUGGESTIONS_CAP.query_suggestions : 1,
    products: asks('product_suggestions') ? SUGGESTIONS_CAP.product_suggestions : 0,
  };
}

function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', 400, `invalid request: ${field}: ${message}`, [{ in: 'body', field, code: 'invalid_value', message }]);
}
