import { z } from 'zod';
import { Timestamp } from '../../http/schemas.js';
import { STATUSES, PROVIDERS } from '../../../shared/billing/index.js';

export const PlanOut = z.object({
  code: z.string(),
  name: z.string(),
  price_month_cents: z.number().int().nullable(),
  price_year_cents: z.number().int().nullable(),
  currency: z.string(),
  products_limit: z.number().int().nullable(),
  searches_limit: z.number().int().nullable(),
  features: z.record(z.string(), z.unknown()),
  overage: z.record(z.string(), z.unknown()),
  trial_days: z.number().int(),
});
export const AddonOut = z.object({
  code: z.string(),
  name: z.string(),
  kind: z.enum(['assistant_conversations']),
  bundle_size: z.number().int(),
  price_cents: z.number().int().nullable(),
  currency: z.string(),
  plans: z.array(z.string()),
  expires: z.enum(['period_end', 'never']),
});
export const AddonBalance = z.object({
  units: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  period_end: Timestamp.nullable().optional(),
});
export const PendingChange = z.object({
  plan_code: z.string(),
  interval: z.enum(['month', 'year']),
  effective_at: Timestamp.nullable().describe('when it applies: the current period end'),
});
export const SubscriptionOut = z.object({
  plan_code: z.string(),
  interval: z.enum(['month', 'year']),
  status: z.enum(STATUSES),
  provider: z.enum(PROVIDERS),
  trial_ends_at: Timestamp.nullable().optional(),
  current_period_start: Timestamp.nullable().optional(),
  current_period_end: Timestamp.nullable().optional(),
  cancel_at_period_end: z.boolean().optional(),
  pending_change: PendingChange.nullable()
    .optional()
    .describe('a downgrade or shorter interval waiting for the period end; changing plan back to the current one drops it'),
  credit_minor: z.number().int().optional().describe('credit (unused time of an earlier term, minor units) drawn by the next renewal and plan-change invoices'),
  addons: z.record(z.string(), AddonBalance).optional(),
});
export const AddonQuantity = z.strictObject({ code: z.string().max(48), quantity: z.number().int().min(1).max(100) });
const Interval = z.enum(['month', 'year']).default('month');
export const CheckoutBody = z.strictObject({ plan_code: z.string().max(32), interval: Interval, addons: z.array(AddonQuantity).max(10).optional() });
export const ChangePlanBody = CheckoutBody;
export const PurchaseBody = z.strictObject({ code: z.string().max(48), quantity: z.number().int().min(1).max(100).default(1) });
export const CancelBody = z.strictObject({ at_period_end: z.boolean().default(true), reason: z.string().max(500).nullable().optional() });
export const RedirectUrl = z.object({ url: z.string() });
export const InvoiceOut = z.object({
  id: z.string(),
  status: z.string(),
  currency: z.string(),
  total_minor: z.number().int(),
  tax_minor: z.number().int(),
  issued_at: Timestamp,
  hosted_url: z.string().nullable().optional(),
  pdf_url: z.string().nullable().optional(),
  paid_at: Timestamp.nullable().optional(),
});
export const ProviderParam = z.object({ provider: z.enum(['paddle', 'stripe', 'mock']) });
export const WebhookAnswer = z.record(z.string(), z.boolean());
