import { z } from 'zod';
import { IGNORED_PARAMS, SUPPORTED_PARAMS } from '../../../shared/storefront/index.js';

const ParamsDoc = `supported: ${SUPPORTED_PARAMS.join(', ')}; accepted and ignored: ${IGNORED_PARAMS.join(', ')}; any other parameter is ignored too`;

/** Credentials as query parameters (the browser lite client and search-insights send them so; headers work too). */
export const AlgoliaQuery = z
  .object({
    'x-algolia-api-key': z.string().max(200).optional().describe('public or secret key (or header x-algolia-api-key)'),
    'x-algolia-application-id': z.string().max(100).optional().describe('the store (tenant) id of the key (or header x-algolia-application-id)'),
    'x-algolia-agent': z.string().max(1000).optional().describe('ignored'),
  })
  .catchall(z.string().max(1000));

export const QueryRequest = z.looseObject({
  indexName: z
    .string()
    .max(200)
    .describe('<index> (any name), <index>_price_asc|_price_desc|_newest|_popular (sorted), <index>_query_suggestions, <index>_product_suggestions'),
  type: z.enum(['default', 'facet']).optional().describe('facet: searchForFacetValues (facet, facetQuery, maxFacetHits)'),
  params: z
    .union([z.string().max(20_000), z.record(z.string(), z.unknown())])
    .optional()
    .describe(`URL-encoded parameters; they may also be fields of the request. ${ParamsDoc}`),
});

export const QueriesBody = z.object({
  requests: z.array(QueryRequest).min(1).max(50),
  strategy: z.enum(['none', 'stopIfEnoughMatches']).optional().describe('ignored: every query runs'),
});

export const IndexParam = z.object({ index: z.string().min(1).max(200) });

export const SingleQueryBody = z.looseObject({
  params: z
    .union([z.string().max(20_000), z.record(z.string(), z.unknown())])
    .optional()
    .describe(ParamsDoc),
});

export const FacetParams = z.object({
  index: z.string().min(1).max(200),
  facet: z.string().min(1).max(200).describe('the facet attribute, URL-encoded: brand, category, categories.lvl0, in_stock, a mapped facet attribute'),
});

export const FacetQueryBody = z.looseObject({
  params: z
    .union([z.string().max(20_000), z.record(z.string(), z.unknown())])
    .optional()
    .describe(`URL-encoded parameters (algoliasearch v4); they may also be fields of the body. ${ParamsDoc}`),
  facetQuery: z.string().optional().describe('the typed text: values with a word starting with it (at most 256 characters; default "")'),
  maxFacetHits: z.union([z.number(), z.string()]).optional().describe('values answered, an integer 1 to 100 (default 10)'),
});

const HighlightResult = z.object({
  value: z.string(),
  matchLevel: z.enum(['none', 'partial', 'full']),
  matchedWords: z.array(z.string()),
  fullyHighlighted: z.boolean().optional(),
});

export const AlgoliaHit = z
  .looseObject({
    objectID: z.string(),
    _highlightResult: z.record(z.string(), HighlightResult).optional(),
  })
  .describe(
    'products: name, brand, price, sale_price (numbers), currency, in_stock, url, image_url, category, product (the full card); query suggestions: query, kind, target',
  );

export const AlgoliaResult = z.looseObject({
  hits: z.array(AlgoliaHit),
  nbHits: z.number().int(),
  nbPages: z.number().int(),
  page: z.number().int(),
  hitsPerPage: z.number().int(),
  facets: z.record(z.string(), z.record(z.string(), z.number().int())),
  facets_stats: z.record(z.string(), z.object({ min: z.number(), max: z.number() })),
  exhaustiveFacetsCount: z.boolean(),
  exhaustiveNbHits: z.boolean(),
  processingTimeMS: z.number().int(),
  query: z.string(),
  params: z.string(),
  index: z.string(),
  queryID: z.string().optional().describe('the search_id (products indices); send it back with click events'),
  renderingContent: z
    .object({ widgets: z.object({ banners: z.array(z.unknown()) }).optional(), redirect: z.object({ url: z.string() }).optional() })
    .optional(),
  didYouMean: z.string().nullable().optional(),
  zeroResultHelp: z.unknown().optional(),
  banners: z.array(z.unknown()).optional(),
  redirect: z.unknown().optional(),
  categoryLabels: z.record(z.string(), z.string()).optional(),
  lang: z.string().optional(),
});

export const FacetValuesResult = z.object({
  facetHits: z.array(z.object({ value: z.string(), count: z.number().int(), highlighted: z.string() })),
  exhaustiveFacetsCount: z.boolean(),
  processingTimeMS: z.number().int(),
});

export const QueriesResponse = z.object({ results: z.array(z.union([AlgoliaResult, FacetValuesResult])) });
