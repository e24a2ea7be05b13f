import { z } from 'zod';
import { int, queryInt } from '../../http/schemas.js';
import { Card } from '../search/search.schema.js';
import { RECOMMEND_TYPES } from '../../../shared/recommend/index.js';

export const RecommendQuery = z.strictObject({
  type: z.enum(RECOMMEND_TYPES),
  product_id: z.string().min(1).max(128).nullish().describe('required for similar and also_viewed'),
  category_id: z.string().min(1).max(128).nullish().describe('only products of this category (trending per category)'),
  session: z.string().min(1).max(64).nullish().describe('the shopper session (recently_viewed)'),
  limit: queryInt(int().min(1).max(50).default(10)),
});

export const RecommendResponse = z.object({
  type: z.enum(RECOMMEND_TYPES),
  ids: z.array(z.string()),
  products: z.array(Card),
  source: z.enum(['attributes', 'vectors', 'co_views', 'popularity', 'session']).describe('the first source of the fallback chain that gave products'),
});
