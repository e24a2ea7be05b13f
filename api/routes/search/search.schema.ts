import { z } from 'zod';
import { int, queryInt } from '../../http/schemas.js';

export const Lang = z
  .string()
  .regex(/^(auto|[a-z]{2})$/, 'auto or a two-letter tenant locale')
  .default('auto');
const Sort = z.enum(['relevance', 'price_asc', 'price_desc', 'newest', 'popular']);
const Ai = z.enum(['auto', 'on', 'off']).default('auto');
const Device = z.enum(['desktop', 'mobile', 'tablet', 'unknown']).default('unknown');
export const Session = z.string().max(64).nullish();
const Page = queryInt(int().min(1).max(1000).default(1));
const PerPage = queryInt(int().min(1).max(100).default(20));

export const RangeFilter = z.strictObject({ gte: z.number().finite().nullish(), lte: z.number().finite().nullish() });
/** A filter's value list holds at most this many values, each of at most FILTER_VALUE_CHARS characters: on GET (`filter[x]=a,b`) as on POST. */
export const FILTER_VALUES = 100;
export const FILTER_VALUE_CHARS = 200;
/** A filter value: text, or a JSON number read as its text (9.0 is "9"; the engines match a number in any writing). */
const FilterText = z.union([z.string().max(FILTER_VALUE_CHARS), z.number().finite().transform(String)]);
export const FilterValueIn = z.union([z.array(FilterText).max(FILTER_VALUES, `at most ${FILTER_VALUES} values`), RangeFilter, FilterText, z.boolean()]);
/** The longest `filter[x]=a,b` a GET takes: FILTER_VALUES values of FILTER_VALUE_CHARS characters and their commas (get-filters.ts checks each). */
const FILTER_PARAM_CHARS = FILTER_VALUES * (FILTER_VALUE_CHARS + 1) - 1;

export const RankingConfig = z.strictObject({
  ai_rewrite: z.boolean().nullish(),
  rule_parser: z.boolean().nullish(),
  in_stock_first: z.boolean().nullish(),
  business_signals: z.record(z.string().max(40), z.number().min(0).max(1)).nullish(),
  typo_tolerance: z.boolean().nullish(),
  hybrid_search: z.boolean().nullish(),
  cheap_rerank_top_n: z.number().int().min(10).max(200).nullish(),
  merch_rules: z.boolean().nullish(),
  disabled_rule_ids: z.array(z.string().max(64)).max(200).nullish(),
  synonym_sets: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/))
    .max(50)
    .nullish(),
  global_synonyms: z.boolean().nullish(),
});

/** GET /v1/search: filters arrive as `filter[name]=a,b`, `filter[name][gte]=n`, `filter[name][lte]=n`. */
export const SearchQuery = z
  .object({
    q: z.string().max(256).default(''),
    lang: Lang,
    page: Page,
    per_page: PerPage,
    sort: Sort.optional(),
    facets: z.string().max(1000).nullish().describe('comma-separated facet names'),
    ai: Ai,
    session: Session,
    device: Device,
    debug: z.enum(['true', 'false']).optional().describe('secret key or dashboard session only'),
  })
  .catchall(z.string().max(FILTER_PARAM_CHARS).describe('filter[<name>]=v1,v2 | filter[<name>][gte]=n | filter[<name>][lte]=n'));

/** SearchQuery as documented: its catchall is the `filter` parameter, an object in the query string (`filter[brand]=a,b`, `filter[price][gte]=10`). */
export const SearchQueryDoc = SearchQuery.extend({
  filter: z
    .record(z.string().max(100), z.union([z.string().max(FILTER_PARAM_CHARS), z.strictObject({ gte: z.number().optional(), lte: z.number().optional() })]))
    .optional()
    .describe(
      `filters: filter[<name>]=v1,v2 (a value list of at most ${FILTER_VALUES} values of at most ${FILTER_VALUE_CHARS} characters, as in POST; true or false for in_stock), filter[<name>][gte]=n and filter[<name>][lte]=n (a range)`,
    ),
}).strict();

export const SearchBody = z.strictObject({
  q: z.string().max(256).default(''),
  lang: Lang,
  page: z.number().int().min(1).max(1000).default(1),
  per_page: z.number().int().min(1).max(100).default(20),
  filters: z
    .record(z.string().max(100), FilterValueIn)
    .optional()
    .describe(
      `by filter name: a value list (at most ${FILTER_VALUES} values of at most ${FILTER_VALUE_CHARS} characters, as on GET; a JSON number is its text), a value, a range {gte, lte} or a boolean`,
    ),
  sort: Sort.optional(),
  facets: z.array(z.string().max(100)).max(50).optional(),
  ai: Ai,
  session: Session,
  device: Device,
  debug: z.boolean().default(false),
  config_override: RankingConfig.nullish(),
});

export const Card = z.object({
  id: z.string(),
  name: z.record(z.string(), z.string()),
  url: z.string().nullable(),
  image_url: z.string().nullable(),
  price: z.string(),
  sale_price: z.string().nullable(),
  currency: z.string(),
  in_stock: z.boolean(),
  brand: z.string().nullable(),
  category: z.record(z.string(), z.string()).nullable(),
});
export const Bucket = z.object({ value: z.string(), label: z.record(z.string(), z.string()).nullable(), count: z.number().int() });

export const SearchResponse = z.object({
  search_id: z.string(),
  query: z.object({
    text: z.string(),
    normalized: z.string(),
    rewritten: z.string().nullable(),
    lang: z.string(),
    filters: z.record(z.string(), z.unknown()),
    sort: z.string().nullable(),
    ai_used: z.boolean(),
    ai_cached: z.boolean(),
  }),
  ids: z.array(z.string()),
  hits: z.array(
    z.object({
      id: z.string(),
      score: z.number().nullable().describe('null for a pinned product'),
      product: Card,
      highlights: z.record(z.string(), z.string()),
      pinned: z.boolean().describe('placed by a merchandising rule'),
    }),
  ),
  total: z
    .number()
    .int()
    .describe(
      'matches of every word; when fewer than 5 match strongly (every word above the description, or of the category the query names), products matching some of the words are added and counted',
    ),
  page: z.number().int(),
  per_page: z.number().int(),
  facets: z.array(
    z.object({
      name: z.string(),
      type: z.enum(['terms', 'range', 'boolean', 'category_tree']),
      buckets: z.array(Bucket).optional(),
      min: z.number().nullable().optional(),
      max: z.number().nullable().optional(),
    }),
  ),
  did_you_mean: z.string().nullable(),
  redirect: z
    .object({ url: z.string(), rule_id: z.string() })
    .nullable()
    .describe('the first matching rule with a redirect (conflict order in README, Merchandising)'),
  banners: z
    .array(
      z.object({
        id: z.string().describe('<rule id>-<n>'),
        html: z.string().nullable(),
        image_url: z.string().nullable(),
        link_url: z.string().nullable(),
        position: z.enum(['top', 'inline', 'bottom']),
      }),
    )
    .describe('from every applied rule, in conflict order'),
  zero_result_help: z
    .object({ relaxed: z.boolean(), relaxed_query: z.string().nullable(), popular_categories: z.array(Bucket) })
    .nullable()
    .describe('set when no product has every word: relaxed is true when the hits match some of the words, false when nothing matched'),
  experiment: z
    .object({ experiment_id: z.string(), variant: z.string() })
    .nullable()
    .describe("the session's variant of the running experiment; null without a session"),
  took_ms: z.number(),
  debug: z.record(z.string(), z.unknown()).nullable(),
});
