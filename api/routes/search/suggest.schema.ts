import { z } from 'zod';
import { int, queryInt } from '../../http/schemas.js';
import { Bucket, Card, Lang, Session } from './search.schema.js';

export const SuggestQuery = z.strictObject({
  q: z.string().max(128),
  lang: Lang,
  limit: queryInt(int().min(1).max(20).default(8)),
  products: queryInt(int().min(0).max(10).default(4)),
  session: Session,
});

export const SuggestResponse = z.object({
  query: z.string(),
  suggestions: z.array(
    z.object({ text: z.string(), highlighted: z.string().nullable(), kind: z.enum(['query', 'category', 'brand']), target: z.string().nullable() }),
  ),
  products: z.array(Card),
  categories: z.array(Bucket),
  took_ms: z.number(),
});
