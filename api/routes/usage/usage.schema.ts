import { z } from 'zod';

export const UsageMetric = z.object({
  metric: z.enum(['search', 'assistant_message', 'assistant_conversation', 'translated_product', 'ai_cost_micros_usd', 'products_indexed']),
  used: z.number().int(),
  limit: z.number().int().nullable(),
  percent: z.number().nullable(),
});
export const UsageDay = z.object({
  day: z.iso.date(),
  searches: z.number().int(),
  suggests_not_billed: z.number().int(),
  assistant_messages: z.number().int(),
  assistant_conversations: z.number().int(),
  translated_products: z.number().int(),
});
export const UsageOut = z.object({
  period_start: z.iso.date(),
  period_end: z.iso.date(),
  plan_code: z.string(),
  metrics: z.array(UsageMetric),
  overage_estimate_cents: z.number().int(),
  daily: z.array(UsageDay),
  notices: z.array(z.enum(['80_percent', '100_percent'])).optional(),
});
