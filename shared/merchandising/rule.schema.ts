import { z } from 'zod';
import { Timestamp } from '../platform/schemas.js';

/** A filter value as search takes it: a value list, a range, one value or a boolean. */
export const RuleFilterValue = z.union([
  z.array(z.string().min(1).max(200)).min(1).max(100),
  z.strictObject({ gte: z.number().finite().nullish(), lte: z.number().finite().nullish() }),
  z.string().min(1).max(200),
  z.boolean(),
]);
export const RuleFilters = z.record(z.string().min(1).max(100), RuleFilterValue);

/** Matched on whole words of the normalized query: `is` the whole query, `starts_with` its first words, `contains` consecutive words anywhere. */
export const PatternKind = z.enum(['is', 'starts_with', 'contains']);
export const Pattern = z.strictObject({
  match: PatternKind,
  text: z.string().min(1).max(200).describe('normalized like queries (case, Arabic letter forms, diacritics, digits)'),
  lang: z
    .string()
    .regex(/^[a-z]{2}$/)
    .nullish()
    .describe('only for queries in this store language; default any'),
});

export const RuleConditions = z.strictObject({
  patterns: z.array(Pattern).max(50).default([]).describe('any of them matches; none: every query (e.g. a category page rule with a filter context)'),
  filters: z
    .record(z.string().min(1).max(100), z.union([z.array(z.string().min(1).max(200)).min(1).max(100), z.string().min(1).max(200), z.boolean()]))
    .nullish()
    .describe('context: the rule applies only when the search filters by each of these (any listed value; category by id or level key)'),
  active_from: Timestamp.nullish(),
  active_until: Timestamp.nullish(),
});

export const Banner = z.strictObject({
  html: z.string().max(20_000).nullish(),
  image_url: z.string().url().max(2048).nullish(),
  link_url: z.string().url().max(2048).nullish(),
  position: z.enum(['top', 'inline', 'bottom']).default('top'),
});

export const Pin = z.strictObject({ product_id: z.string().min(1).max(128), position: z.number().int().min(1).max(100) });
/** Boost (or bury) the products matching `filters`: relevance times (1 + weight) (or divided by it). */
export const RankShift = z.strictObject({ filters: RuleFilters, weight: z.number().min(0.1).max(100).default(1) });

export const RuleConsequences = z.strictObject({
  redirect: z.strictObject({ url: z.string().url().max(2048) }).nullish(),
  banners: z.array(Banner).max(10).default([]),
  pins: z.array(Pin).max(50).default([]),
  hides: z.array(z.string().min(1).max(128)).max(500).default([]),
  boosts: z.array(RankShift).max(20).default([]),
  buries: z.array(RankShift).max(20).default([]),
  add_filters: RuleFilters.nullish().describe("added to the search (the shopper's own filters win on the same name)"),
});

/** RuleIn: what a client sends to create or replace a rule. */
export const RuleIn = z.strictObject({
  name: z.string().min(1).max(200),
  enabled: z.boolean().default(true),
  priority: z.number().int().min(-1000).max(1000).default(0).describe('higher first'),
  conditions: RuleConditions.default({ patterns: [] }),
  consequences: RuleConsequences,
});
export type RuleInput = z.input<typeof RuleIn>;
export type RuleFields = z.output<typeof RuleIn>;
export type RuleConditionsT = z.output<typeof RuleConditions>;
export type RuleConsequencesT = z.output<typeof RuleConsequences>;
export type PatternT = z.output<typeof Pattern>;
