import { z } from 'zod';
import { Cursor, Job, Limit, Timestamp, int, queryInt } from '../../http/schemas.js';
import type { ItemRow } from '../../../shared/translation/index.js';
import { EXPORT_FORMATS, FIELDS, Locale, SCOPES, STATUSES } from '../../../shared/translation/index.js';

const Note = z.object({ result: z.enum(['pass', 'warn', 'error']), detail: z.string().optional() });

/** TranslationItem (spec 2.4), plus the human_edited flag and when it was approved and written back. */
export const TranslationItem = z.object({
  id: z.string(),
  product_id: z.string(),
  field: z.enum(FIELDS),
  field_key: z
    .string()
    .optional()
    .describe(
      'category id (category), attribute name (attribute_name, attribute_value; `name#i` for the i-th value of a list); absent for name and description',
    ),
  source_locale: z.string(),
  target_locale: z.string(),
  source_text: z.string(),
  translated_text: z.string().nullable(),
  ai_translated: z.boolean(),
  status: z.enum(STATUSES),
  quality_score: z.number().nullable(),
  quality_notes: z
    .record(z.string(), Note)
    .describe('per check: numbers_kept, brand_kept, glossary_obeyed, placeholders_restored, target_script, length_ratio, not_identical, html_balanced'),
  human_edited: z.boolean().describe('a person wrote the text: the machine never overwrites it'),
  source_hash: z.string(),
  provider: z.string().nullable(),
  approved_at: Timestamp.nullable(),
  written_back_at: Timestamp.nullable(),
  updated_at: Timestamp,
});

export const BackfillBody = z.strictObject({
  target_locale: Locale.default('ar'),
  fields: z.array(z.enum(FIELDS)).min(1).max(FIELDS.length).default(['name', 'description', 'category']),
  scope: z.enum(SCOPES).default('missing'),
  product_ids: z.array(z.string().min(1).max(128)).min(1).max(20_000).nullish(),
  review_top_n: z.number().int().min(0).max(5000).default(0),
  dry_run: z.boolean().default(false),
});

export const BackfillEstimate = z.object({
  products: z.number().int(),
  fields: z.number().int(),
  estimated_cost_usd: z.string().describe('US dollars; "0.000000" when no provider is configured'),
  provider: z.string().nullable(),
  job: Job.nullable(),
});

export const LocaleQuery = z.strictObject({ target_locale: Locale.default('ar') });

export const TranslationStatusOut = z.object({
  target_locale: z.string(),
  total_fields: z.number().int(),
  by_status: z.record(z.string(), z.number().int()),
  human_edited: z.number().int(),
  cost_month_usd: z.string(),
  watch_enabled: z.boolean(),
  running_job: Job.nullable(),
  provider: z.object({ configured: z.boolean(), name: z.string().nullable(), message: z.string().nullable() }),
});

export const SettingsBody = z.strictObject({
  target_locale: Locale.default('ar'),
  watch_enabled: z.boolean().optional().describe('translate new and changed products automatically'),
  auto_approve: z.boolean().optional().describe('machine translations without errors at or above the score go straight to approved'),
  auto_approve_min_score: z.number().min(0).max(1).optional(),
});

export const SettingsOut = z.object({
  target_locale: z.string(),
  watch_enabled: z.boolean(),
  auto_approve: z.boolean(),
  auto_approve_min_score: z.number(),
  updated_at: Timestamp.nullable(),
});

export const ReviewQuery = z.strictObject({
  status: z.enum(STATUSES).default('review'),
  target_locale: Locale.nullish().describe('only this target locale'),
  cursor: Cursor,
  limit: Limit(50, 200),
});

export const ReviewParams = z.object({ translation_id: z.string().min(1).max(64) });
export const ReviewBody = z.strictObject({
  action: z.enum(['approve', 'reject', 'edit']),
  text: z.string().max(20_000).nullish().describe('required for edit; approve and reject ignore it'),
});

export const BulkBody = z.strictObject({ ids: z.array(z.string().min(1).max(64)).min(1).max(1000), action: z.enum(['approve', 'reject']) });
export const BulkReviewResult = z.object({
  updated: z.number().int(),
  skipped: z.number().int(),
  skipped_ids: z.array(z.string()).describe('unknown ids and items the action does not apply to'),
});

export const ExportQuery = z.strictObject({
  format: z.enum(EXPORT_FORMATS).default('csv'),
  target_locale: Locale.default('ar'),
  language_id: queryInt(int().min(1).max(2_147_483_647))
    .optional()
    .describe(
      "sql_opencart: OpenCart language_id of the target language; by default the SQL reads it from the store's `<table_prefix>language` (code = target_locale, else the first `<target_locale>-*`)",
    ),
  table_prefix: z
    .string()
    .regex(/^[A-Za-z0-9_]{0,32}$/)
    .default('oc_')
    .describe('sql_opencart: the OpenCart DB_PREFIX'),
});
export const ExportContent = z.string().describe('the file content (README "Translation exports" describes each layout)');

export const ApprovedQuery = z.strictObject({
  locale: Locale,
  since: z.string().max(200).nullish(),
  limit: Limit(200, 500),
});

/** TranslationWriteItem (spec 2.4). */
export const TranslationWriteItem = z.object({
  id: z.string(),
  product_id: z.string(),
  field: z.enum(['name', 'description', 'category']),
  field_key: z.string().optional().describe('the category id when field is category; absent otherwise'),
  locale: z.string(),
  text: z.string(),
  source_hash: z.string(),
  status: z.enum(['approved', 'human_edited']),
  updated_at: Timestamp,
});
export const ApprovedPage = z.object({ data: z.array(TranslationWriteItem), next_cursor: z.string().nullable() });

export const AckBody = z.strictObject({ ids: z.array(z.string().min(1).max(64)).min(1).max(500) });
export const AckResult = z.object({ updated: z.number().int() });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** TranslationItem of a stored item. */
export function toItemOut(r: ItemRow) {
  return {
    id: r.id,
    product_id: r.product_id,
    field: r.field,
    // Spec 2.4: optional, never null; the table stores '' for a field without a key.
    ...(r.field_key ? { field_key: r.field_key } : {}),
    source_locale: r.source_locale,
    target_locale: r.target_locale,
    source_text: r.source_text,
    translated_text: r.translated_text,
    ai_translated: r.ai_translated,
    status: r.status,
    quality_score: r.quality_score,
    quality_notes: r.quality_notes,
    human_edited: r.human_edited,
    source_hash: r.source_hash,
    provider: r.provider,
    approved_at: iso(r.approved_at),
    written_back_at: iso(r.written_back_at),
    updated_at: r.updated_at.toISOString(),
  };
}
