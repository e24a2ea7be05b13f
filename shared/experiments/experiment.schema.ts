import { z } from 'zod';

export const EXPERIMENT_STATUSES = ['draft', 'running', 'stopped'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];
export const METRICS = ['ctr', 'add_to_cart_rate', 'conversion_rate'] as const;
export type Metric = (typeof METRICS)[number];

/** One variant as stored: the first variant of an experiment is its control. */
export interface Variant {
  key: string;
  traffic_percent: number;
  /** RankingConfig fields this variant sets (over the store's saved ones; a dashboard override still wins). */
  ranking: Record<string, unknown> | null;
  /** Rules this variant switches on, even when they are disabled for everyone else. */
  rule_ids: string[];
}

/** The checks zod cannot express on its own: split sums to 100, unique keys. */
export function variantProblems(variants: Array<{ key: string; traffic_percent: number }>): Array<{ field: string; code: string; message: string }> {
  const problems: Array<{ field: string; code: string; message: string }> = [];
  const sum = variants.reduce((n, v) => n + v.traffic_percent, 0);
  if (Math.abs(sum - 100) > 1e-6) problems.push({ field: 'variants', code: 'invalid_split', message: `traffic_percent must add up to 100 (got ${sum})` });
  const seen = new Set<string>();
  variants.forEach((v, i) => {
    if (seen.has(v.key)) problems.push({ field: `variants.${i}.key`, code: 'duplicate', message: `variant key "${v.key}" is used twice` });
    seen.add(v.key);
  });
  return problems;
}

export const VariantKey = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'lower-case letters, digits, _ and -, up to 32');
