import { z } from 'zod';

/** What the model answers (structured output): the rewritten search text, filters, sort. */
export const REWRITE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['text', 'filters', 'sort'],
  properties: {
    text: { type: 'string', description: 'the product words to search for, without price, brand, sort or filler words' },
    filters: {
      type: 'object',
      additionalProperties: false,
      required: ['brand', 'category', 'price_min', 'price_max', 'attributes'],
      properties: {
        brand: { type: 'array', items: { type: 'string' } },
        category: { type: 'array', items: { type: 'string' } },
        price_min: { type: ['number', 'null'] },
        price_max: { type: ['number', 'null'] },
        attributes: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'value'],
            properties: { name: { type: 'string' }, value: { type: 'string' } },
          },
        },
      },
    },
    sort: { type: ['string', 'null'], enum: ['relevance', 'price_asc', 'price_desc', 'newest', 'popular', null] },
  },
} as const;

/** The same shape, checked on our side: a model (or a server) may not honour the schema. */
export const ModelRewrite = z.object({
  text: z.string().max(1000),
  filters: z.object({
    brand: z.array(z.string().max(200)).max(20).default([]),
    category: z.array(z.string().max(200)).max(20).default([]),
    price_min: z.number().nullable().default(null),
    price_max: z.number().nullable().default(null),
    attributes: z
      .array(z.object({ name: z.string().max(100), value: z.string().max(200) }))
      .max(20)
      .default([]),
  }),
  sort: z.enum(['relevance', 'price_asc', 'price_desc', 'newest', 'popular']).nullable().default(null),
});
export type ModelRewriteT = z.output<typeof ModelRewrite>;

export const REWRITE_SYSTEM = [
  "You rewrite a shopper's query for an online store's product search engine.",
  'Answer JSON only. "text": the product words to search for (keep the shopper\'s language; drop filler, price, brand and sort words).',
  '"filters": brands, categories, a price range (store currency) and attributes the shopper clearly asked for; leave out anything unsure.',
  '"sort": only when the shopper asked for an order (cheapest, newest...), else null.',
  'Use only attribute names from the list given. Never invent brands.',
].join(' ');

/** The user message: the query and what the store can filter on. */
export function rewriteUser(query: string, lang: string, attributes: string[], currency: string | null): string {
  return JSON.stringify({ query, language: lang, attributes, currency });
}
