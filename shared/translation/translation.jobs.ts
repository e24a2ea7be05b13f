import { z } from 'zod';
import { defineJob } from '../platform/queue/define-job.js';
import { FIELDS, SCOPES } from './translation.schema.js';

/** The queue of the translation pipeline; provider calls have their own (their concurrency is the provider's). */
export const TRANSLATION_QUEUE = 'translation';
export const PROVIDER_QUEUE = 'translation-provider';

const Token = z.object({ n: z.number().int(), kind: z.enum(['html', 'url', 'glossary', 'code', 'number']), original: z.string(), restore: z.string() });
const Note = z.object({ result: z.enum(['pass', 'warn', 'error']), detail: z.string().optional() });

/** One field of a chunk as it moves through the stages; each stage fills its part. */
export const ChunkItem = z.object({
  id: z.string(),
  version: z.number().int(),
  productId: z.string(),
  field: z.enum(FIELDS),
  fieldKey: z.string(),
  sourceLocale: z.string(),
  text: z.string(),
  /** Brand, model, SKU, GTIN of the product. */
  codes: z.array(z.string()),
  /** One of the backfill's review_top_n products: goes to review whatever its score. */
  review: z.boolean(),
  masked: z.string().optional(),
  tokens: z.array(Token).optional(),
  /** The provider's text (dropped once restored, as masked and tokens are: later stages carry less). */
  output: z.string().optional(),
  /** Not translated: written or edited since collect (`unchanged`), or left out of the provider's answer. */
  skipped: z.enum(['unchanged', 'left_out']).optional(),
  restored: z.string().optional(),
  report: z.object({ missing: z.array(z.number()), repeated: z.array(z.number()), unknown: z.array(z.number()) }).optional(),
  notes: z.record(z.string(), Note).optional(),
  score: z.number().optional(),
});
export type ChunkItem = z.output<typeof ChunkItem>;

export const Chunk = z.object({
  tenantId: z.string().min(1),
  /** The backfill's jobs row (null for watch runs) and the run the chunk belongs to. */
  jobRowId: z.string().nullable(),
  runId: z.string().min(1),
  chunk: z.number().int().min(0),
  targetLocale: z.string().regex(/^[a-z]{2}$/),
  items: z.array(ChunkItem).min(1).max(2000),
  provider: z.string().optional(),
  cost: z.object({ micros: z.number(), inputTokens: z.number(), outputTokens: z.number(), calls: z.number() }).optional(),
  /** Set by route: items per outcome, and the products whose served text changed (to reindex). */
  outcome: z.record(z.string(), z.number()).optional(),
  changedProducts: z.array(z.string()).optional(),
});
export type Chunk = z.output<typeof Chunk>;

const chunkJob = (name: string, queue = TRANSLATION_QUEUE, attempts?: number) =>
  defineJob({
    queue,
    name,
    schema: Chunk,
    attempts,
    jobId: (d: Chunk) => `${name}-${d.tenantId}-${d.runId}-${d.chunk}`,
  });

export const CollectData = z.object({
  tenantId: z.string().min(1),
  jobRowId: z.string().nullable(),
  runId: z.string().min(1),
  targetLocale: z.string().regex(/^[a-z]{2}$/),
  /** A backfill scope, or `changed` (watch mode: new fields, pending and stale ones). */
  scope: z.enum([...SCOPES, 'changed']),
  fields: z.array(z.enum(FIELDS)).min(1),
  productIds: z.array(z.string().min(1).max(128)).max(20_000).nullable(),
  reviewTopN: z.number().int().min(0).max(5000),
});
export type CollectData = z.output<typeof CollectData>;

/** collect -> protect -> translate -> restore -> check -> route -> index (pipelines/translation). */
export const collectJob = defineJob({
  queue: TRANSLATION_QUEUE,
  name: 'collect-fields',
  schema: CollectData,
  jobId: (d) => `collect-fields-${d.tenantId}-${d.runId}`,
  attempts: 3,
});
export const protectJob = chunkJob('protect-fields');
// Three tries with backoff on top of the client's own retries: a provider down for minutes fails the run rather than stalling it.
export const translateJob = chunkJob('translate-fields', PROVIDER_QUEUE, 3);
export const restoreJob = chunkJob('restore-fields');
export const checkJob = chunkJob('check-fields');
export const routeJob = chunkJob('route-fields');
export const indexJob = chunkJob('index-translations');
