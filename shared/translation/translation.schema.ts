import { z } from 'zod';

/** Translatable fields (spec 2.4 TranslationItem.field). */
export const FIELDS = ['name', 'description', 'category', 'attribute_name', 'attribute_value'] as const;
export type Field = (typeof FIELDS)[number];
/** Fields a store module writes back (spec 2.4 TranslationWriteItem.field). */
export const WRITE_BACK_FIELDS: readonly Field[] = ['name', 'description', 'category'];

export const STATUSES = ['pending', 'machine', 'review', 'approved', 'rejected', 'human_edited', 'stale'] as const;
export type Status = (typeof STATUSES)[number];

/** Statuses whose text is indexed into search (a stale item's text stays served while its `stale_from` was one of these). */
export const SERVED: readonly Status[] = ['machine', 'approved', 'human_edited'];
/** Statuses of the approved feed and the exports. */
export const APPROVED: readonly Status[] = ['approved', 'human_edited'];

export const Locale = z.string().regex(/^[a-z]{2}$/, 'two lowercase letters, e.g. "ar"');

export const SCOPES = ['all', 'missing', 'stale'] as const;
export type BackfillScope = (typeof SCOPES)[number];

/** GlossaryTermIn (spec 2.4); limits of spec section 8. */
export const GlossaryTermIn = z.strictObject({
  source_locale: Locale,
  target_locale: Locale,
  source_term: z.string().trim().min(1).max(300),
  target_term: z.string().trim().min(1).max(300).nullish(),
  do_not_translate: z.boolean().default(false),
  case_sensitive: z.boolean().default(false),
  note: z.string().max(1000).nullish(),
});
export type GlossaryTermInput = z.output<typeof GlossaryTermIn>;
