import { z } from 'zod';
import { Cursor, Job, Limit, Timestamp } from '../../http/schemas.js';
import { SUGGESTION_STATUSES } from '../../../shared/synonyms/suggestions.repo.js';
import { MAX_MINING_DAYS } from '../../../shared/synonyms/synonyms.jobs.js';

/** SynonymSuggestionOut (spec 2.3), plus when it was decided and the rule an approval created or linked. */
export const SynonymSuggestionOut = z.object({
  id: z.string(),
  kind: z.enum(['equivalent', 'one_way']),
  terms: z.array(z.string()),
  input: z.string().nullable(),
  outputs: z.array(z.string()),
  evidence: z.record(z.string(), z.unknown()).describe('queries, sessions, searches, clicks, example_products and counts of the kind (see README)'),
  score: z.number().describe('0 to 1; higher is stronger evidence'),
  status: z.enum(SUGGESTION_STATUSES),
  created_at: Timestamp,
  decided_at: Timestamp.nullable(),
  synonym_id: z.string().nullable().describe('the rule an approval created or linked'),
});

export const ListSuggestions = z.strictObject({
  status: z.enum(SUGGESTION_STATUSES).default('pending'),
  cursor: Cursor,
  limit: Limit(50, 200),
});

export const SuggestionParams = z.object({ suggestion_id: z.string().min(1).max(64) });

export const DecisionBody = z.strictObject({ decision: z.enum(['approve', 'reject']) });

export const MineBody = z.strictObject({
  days: z.number().int().min(1).max(MAX_MINING_DAYS).default(30).describe('how far back the search log and events are read'),
  min_sessions: z.number().int().min(1).max(10_000).default(3).describe('fewest distinct sessions behind a suggestion'),
});

export const MineAccepted = z.object({ accepted: z.boolean(), job: Job });
