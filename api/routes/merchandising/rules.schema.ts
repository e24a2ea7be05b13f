import { z } from 'zod';
import { Cursor, Limit, Timestamp } from '../../http/schemas.js';
import { RuleConditions, RuleConsequences, RuleIn } from '../../../shared/merchandising/index.js';

export { RuleIn };

/** Rule ids are per store; an imported rule may bring its own. */
export const RuleId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, up to 64');
export const RuleParams = z.object({ rule_id: z.string().min(1).max(64) });

export const ListRules = z.strictObject({
  cursor: Cursor,
  limit: Limit(50, 200),
  q: z.string().max(200).nullish().describe('substring of the name or of a pattern (case-insensitive)'),
  enabled: z.enum(['true', 'false']).optional().describe('only enabled (or disabled) rules'),
});

/** RuleOut: RuleIn with every default filled in, plus the server fields. */
export const RuleOut = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  priority: z.number().int(),
  conditions: RuleConditions,
  consequences: RuleConsequences,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const RuleExport = z.object({ rules: z.array(RuleOut).describe('every rule, oldest first; post it to /v1/rules/import as it is') });

export const RuleImportBody = z.strictObject({
  rules: z
    .array(
      RuleIn.extend({
        id: RuleId.nullish().describe('a stored rule with this id is replaced; a new id is kept; none: a new id is made'),
        created_at: z
          .string()
          .max(40)
          .optional()
          .describe('kept for a new rule (exports carry it), so "the older rule first" holds in the new store; else the import time'),
        updated_at: z.string().max(40).optional().describe('ignored (exports carry it)'),
      }),
    )
    .max(5000),
  mode: z.enum(['merge', 'replace']).default('merge').describe('replace also deletes the stored rules the file does not name'),
});

export const RuleImportResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int().describe('rules already stored exactly as in the file'),
  deleted: z.number().int().describe('replace mode: stored rules the file does not name'),
});
