import { z } from 'zod';
import { Cursor, Limit, Timestamp } from '../../http/schemas.js';
import { EXPERIMENT_STATUSES, METRICS, VariantKey } from '../../../shared/experiments/index.js';
import { RankingConfig } from '../search/search.schema.js';

export const ExperimentParams = z.object({ experiment_id: z.string().min(1).max(64) });

const VariantIn = z.strictObject({
  key: VariantKey.describe('shown in SearchResponse.experiment.variant; the first variant is the control'),
  traffic_percent: z.number().min(0).max(100).describe('share of sessions; the variants add up to 100'),
  ranking: RankingConfig.nullish().describe("RankingConfig fields this variant sets over the store's"),
  rule_ids: z.array(z.string().min(1).max(64)).max(200).default([]).describe('merchandising rules this variant switches on (even disabled ones)'),
});

export const ExperimentIn = z.strictObject({
  name: z.string().min(1).max(200),
  variants: z.array(VariantIn).min(2).max(5),
  primary_metric: z.enum(METRICS).default('conversion_rate').describe('the metric a winner is declared on'),
  min_sample: z.number().int().min(10).max(100_000_000).default(1000).describe('searches every variant needs before a winner is declared'),
});

export const ExperimentOut = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(EXPERIMENT_STATUSES),
  variants: z.array(
    z.object({
      key: z.string(),
      traffic_percent: z.number(),
      ranking: z.record(z.string(), z.unknown()).nullable(),
      rule_ids: z.array(z.string()),
    }),
  ),
  primary_metric: z.enum(METRICS),
  min_sample: z.number().int(),
  created_at: Timestamp,
  updated_at: Timestamp,
  started_at: Timestamp.nullable(),
  stopped_at: Timestamp.nullable(),
});

export const ListExperiments = z.strictObject({
  cursor: Cursor,
  limit: Limit(50, 200),
  status: z.enum(EXPERIMENT_STATUSES).optional(),
});

const Comparison = z.object({
  difference: z.number().describe('variant rate minus control rate'),
  ci_low: z.number(),
  ci_high: z.number(),
  z: z.number(),
  p_value: z.number(),
  p_adjusted: z.number().describe('Benjamini-Hochberg over the variants (equal to p_value with two variants)'),
  significant: z.boolean().describe('p_adjusted < alpha'),
});

export const ExperimentResults = z.object({
  experiment_id: z.string(),
  status: z.enum(EXPERIMENT_STATUSES),
  primary_metric: z.enum(METRICS),
  min_sample: z.number().int(),
  alpha: z.number(),
  confidence: z.number(),
  correction: z.enum(['none', 'benjamini_hochberg']),
  variants: z.array(
    z.object({
      key: z.string(),
      control: z.boolean(),
      traffic_percent: z.number(),
      searches: z.number().int(),
      clicks: z.number().int().describe('searches with at least one search_click'),
      add_to_carts: z.number().int().describe('searches with at least one add_to_cart'),
      purchases: z.number().int().describe('searches with at least one purchase'),
      revenue: z.number().describe("sum of purchase values attributed to the variant's searches"),
      ctr: z.number(),
      add_to_cart_rate: z.number(),
      conversion_rate: z.number(),
      revenue_per_search: z.number(),
      vs_control: z.object({ ctr: Comparison, add_to_cart_rate: Comparison, conversion_rate: Comparison }).nullable(),
    }),
  ),
  winner: z.string().nullable(),
  decision: z.enum(['insufficient_sample', 'winner', 'control_wins', 'no_significant_difference']),
});
