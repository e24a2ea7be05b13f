import { z } from 'zod';
import { Cursor, Limit, Timestamp } from '../../http/schemas.js';
import { SetKey, SynonymConditions, SynonymIn } from '../../../shared/synonyms/rule.js';
import { FORMATS } from '../../../shared/synonyms/formats.js';
import { MAX_IMPORT_CHARS } from '../../../shared/synonyms/import.js';

export { SynonymIn };

export const SynonymParams = z.object({ synonym_id: z.string().min(1).max(64) });

export const ListSynonyms = z.strictObject({
  cursor: Cursor,
  limit: Limit(100, 200),
  q: z.string().max(100).nullish().describe('substring of any term, input or output, compared after normalization'),
  set_key: SetKey.nullish().describe('only this set'),
});

/** SynonymOut (spec 2.3): every field present; equivalent rules have input null and outputs []. */
export const SynonymOut = z.object({
  id: z.string(),
  kind: z.enum(['equivalent', 'one_way']),
  terms: z.array(z.string()),
  input: z.string().nullable(),
  outputs: z.array(z.string()),
  conditions: SynonymConditions.nullable(),
  locale: z.string().nullable(),
  set_key: z.string(),
  enabled: z.boolean(),
  source: z.enum(['manual', 'import', 'suggested', 'global_copy']),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ExportQuery = z.strictObject({
  format: z.enum(FORMATS).default('json'),
  set_key: SetKey.nullish().describe('only this set (default: every set)'),
});

export const ExportContent = z.string().describe('the file content (README "Synonyms" describes the json, csv and solr layouts)');

export const ImportBody = z.strictObject({
  format: z.enum(FORMATS).default('json'),
  content: z.string().max(MAX_IMPORT_CHARS),
  mode: z
    .enum(['merge', 'replace'])
    .default('merge')
    .describe('merge: update matching rules, create the rest; replace: the sets in the file become exactly its rules'),
  set_key: SetKey.nullish().describe('set of rules that name none (every plain Solr line); default "default"'),
});

export const SynonymImportResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int().describe('rules already stored exactly as in the file'),
  deleted: z.number().int().describe("replace mode: rules of the file's sets that the file no longer holds"),
  errors: z.array(z.string()).describe('"line N: problem" for each rule not applied'),
});

export const CopyGlobal = z.strictObject({
  set_key: SetKey.optional().describe('the tenant set to copy into; default "default"'),
  enabled: z.boolean().optional(),
});
