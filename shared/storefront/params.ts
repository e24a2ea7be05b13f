import { z } from 'zod';
import { AppError, type FieldError } from '../platform/errors.js';
import { invalidText } from '../text/valid-text.js';

/** Algolia search parameters this service reads; every other parameter is accepted and ignored (README "Storefront"). */
export const SUPPORTED_PARAMS = [
  'query',
  'page',
  'hitsPerPage',
  'facets',
  'facetFilters',
  'numericFilters',
  'filters',
  'maxValuesPerFacet',
  'highlightPreTag',
  'highlightPostTag',
  'attributesToRetrieve',
  'attributesToHighlight',
  'clickAnalytics',
  'analytics',
  'userToken',
  'queryLanguages',
  'facetQuery',
  'maxFacetHits',
  'facet',
] as const;

/** Parameters seen from InstantSearch and Autocomplete that are accepted and have no effect here. */
export const IGNORED_PARAMS = [
  'attributesToSnippet',
  'snippetEllipsisText',
  'tagFilters',
  'optionalFilters',
  'sumOrFiltersScores',
  'facetingAfterDistinct',
  'sortFacetValuesBy',
  'getRankingInfo',
  'responseFields',
  'distinct',
  'enableRules',
  'ruleContexts',
  'enablePersonalization',
  'personalizationImpact',
  'aroundLatLng',
  'aroundRadius',
  'insideBoundingBox',
  'typoTolerance',
  'restrictSearchableAttributes',
  'removeWordsIfNoResults',
  'advancedSyntax',
  'optionalWords',
  'naturalLanguages',
  'ignorePlurals',
  'removeStopWords',
  'enableABTest',
  'percentileComputation',
  'explain',
  'offset',
  'length',
] as const;

const StringList = z.array(z.string().max(200)).max(100);
const FilterItem = z.union([z.string().max(1000), z.array(z.string().max(1000)).max(100)]);
const FilterList = z.union([z.string().max(1000), z.array(FilterItem).max(100)]);

/** The supported parameters, after the `params` string and the object form are merged and strings coerced. */
export const AlgoliaParamsSchema = z.object({
  query: z.string().max(256).default(''),
  // Any page, as Algolia takes any: one past the pages the search has (SEARCH_PAGES) is answered with no hits.
  page: z.number().int().min(0).default(0),
  hitsPerPage: z.number().int().min(0).max(1000).default(20),
  facets: StringList.default([]),
  facetFilters: FilterList.optional(),
  numericFilters: FilterList.optional(),
  filters: z.string().max(2000).optional(),
  maxValuesPerFacet: z.number().int().min(1).max(1000).default(100),
  highlightPreTag: z.string().max(100).default('<em>'),
  highlightPostTag: z.string().max(100).default('</em>'),
  attributesToRetrieve: StringList.optional(),
  attributesToHighlight: StringList.optional(),
  clickAnalytics: z.boolean().default(false),
  analytics: z.boolean().default(true),
  userToken: z.string().min(1).max(129).optional(),
  queryLanguages: StringList.optional(),
  facet: z.string().max(200).optional(),
  facetQuery: z.string().max(256).default(''),
  maxFacetHits: z.number().int().min(1).max(100).default(10),
});
export type AlgoliaParams = z.output<typeof AlgoliaParamsSchema>;

const NUMBERS = new Set(['page', 'hitsPerPage', 'maxValuesPerFacet', 'maxFacetHits']);
/** How an integer parameter is written in the `params` string. */
const DECIMAL_INT = /^-?[0-9]+$/;
const BOOLEANS = new Set(['clickAnalytics', 'analytics']);
const LISTS = new Set(['facets', 'attributesToRetrieve', 'attributesToHighlight', 'queryLanguages', 'facetFilters', 'numericFilters']);

/**
 * One request of a multi-query (or a single-index query body): the `params` URL-encoded string
 * (algoliasearch v4, the helper's own encoding) merged with parameters given as object fields
 * (algoliasearch v5 lite flattens them); object fields win. Returns the parsed parameters and
 * the merged raw form, which the response echoes as `params`.
 */
export function parseParams(request: Record<string, unknown>, field: string): { params: AlgoliaParams; raw: Record<string, unknown> } {
  const raw: Record<string, unknown> = {};
  if (typeof request.params === 'string') {
    for (const [k, v] of new URLSearchParams(request.params)) raw[k] = v;
  } else if (request.params && typeof request.params === 'object') {
    Object.assign(raw, request.params);
  }
  for (const [k, v] of Object.entries(request)) {
    if (k !== 'params' && k !== 'indexName' && k !== 'type' && v !== undefined) raw[k] = v;
  }
  const coerced: Record<string, unknown> = {};
  for (const k of SUPPORTED_PARAMS) if (raw[k] !== undefined && raw[k] !== null) coerced[k] = coerce(k, raw[k]);
  // The route checked the body's own strings; a `params` string decodes to text of its own (`query=a%00b`, `\ud800` in its JSON).
  const unstorable = invalidText(coerced, { prefix: field });
  if (unstorable.length) {
    const details: FieldError[] = unstorable.map((f) => ({ in: 'body', field: f.field, code: 'invalid_text', message: f.message }));
    throw new AppError('invalid_text', 400, `invalid parameters: ${details[0].field}: ${details[0].message}`, details);
  }
  const result = AlgoliaParamsSchema.safeParse(coerced, { reportInput: true });
  if (!result.success) {
    const details: FieldError[] = result.error.issues.map((i) => ({
      in: 'body',
      field: [field, ...i.path.map(String)].join('.'),
      code: i.code,
      message: i.message,
    }));
    throw new AppError('validation_failed', 400, `invalid parameters: ${details[0].field}: ${details[0].message}`, details);
  }
  return { params: result.data, raw };
}

/** Strings from the `params` string (or a v4 client) into the types the schema reads. */
function coerce(key: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  // Decimal digits only: Number() read `0x10` as 16, `1e1` as 10 and ` 2` as 2; other text stays text, which the schema refuses.
  if (NUMBERS.has(key)) return DECIMAL_INT.test(value) ? Number(value) : value;
  if (BOOLEANS.has(key)) return value === 'true' ? true : value === 'false' ? false : value;
  if (LISTS.has(key)) {
    const t = value.trim();
    if (t.startsWith('[')) {
      try {
        return JSON.parse(t);
      } catch {
        return value;
      }
    }
    // facetFilters/numericFilters as one string is one filter; the lists are comma-separated names.
    if (key === 'facetFilters' || key === 'numericFilters') return value;
    return t ? t.split(',').map((s) => s.trim()) : [];
  }
  return value;
}

/** The merged parameters as the URL-encoded string Algolia answers in `params`. */
export function paramsString(raw: Record<string, unknown>): string {
  return new URLSearchParams(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
}
