import { z } from 'zod';
import { Cursor, Limit, Timestamp } from '../../http/schemas.js';
import { GlossaryTermIn } from '../../../shared/translation/index.js';

export { GlossaryTermIn };

export const ListGlossary = z.strictObject({ cursor: Cursor, limit: Limit(200, 200) });
export const TermParams = z.object({ term_id: z.string().min(1).max(64) });

/** GlossaryTermOut (spec 2.4). */
export const GlossaryTermOut = z.object({
  id: z.string(),
  source_locale: z.string(),
  target_locale: z.string(),
  source_term: z.string(),
  target_term: z.string().nullable(),
  do_not_translate: z.boolean(),
  case_sensitive: z.boolean(),
  note: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
