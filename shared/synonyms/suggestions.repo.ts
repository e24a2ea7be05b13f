import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';
import { AppError } from '../platform/errors.js';
import { fingerprintOf } from './rule.js';
import type { ExistingRule } from './mining-coverage.js';

export const SUGGESTION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

export interface SuggestionRow {
  id: string;
  tenant_id: string;
  kind: 'equivalent' | 'one_way';
  terms: string[];
  input: string | null;
  outputs: string[];
  evidence: Record<string, unknown>;
  score: number;
  status: SuggestionStatus;
  fingerprint: string;
  synonym_id: string | null;
  created_at: Date;
  decided_at: Date | null;
}

export interface NewSuggestion {
  kind: 'equivalent' | 'one_way';
  terms: string[];
  input: string | null;
  outputs: string[];
  evidence: Record<string, unknown>;
  score: number;
}

/** The set approved suggestions become rules in. */
export const SUGGESTED_SET = 'default';
const CHUNK = 500;

/** The suggestion's identity: the same fingerprint the synonym rules use, so an approved one maps onto its rule. */
export const suggestionFingerprint = (s: Pick<NewSuggestion, 'kind' | 'terms' | 'input' | 'outputs'>) => fingerprintOf(s.kind, s.terms, s.input, s.outputs);

export function suggestionsRepo(db: Knex) {
  const rows = (tenantId: string, trx: Knex = db) => trx<SuggestionRow>('synonym_suggestions').where({ tenant_id: tenantId });
  return {
    /** The tenant's enabled synonym rules (what mining must not propose again). */
    async enabledRules(tenantId: string): Promise<ExistingRule[]> {
      return db('synonyms').select('kind', 'terms', 'input', 'outputs').where({ tenant_id: tenantId, enabled: true });
    },
    /**
     * Inserts new suggestions as pending and refreshes evidence and score of pending ones with the
     * same fingerprint; approved and rejected ones are never touched (so never proposed again).
     */
    async upsertPending(tenantId: string, items: NewSuggestion[]): Promise<{ created: number; refreshed: number; decided: number }> {
      let created = 0;
      let refreshed = 0;
      for (let i = 0; i < items.length; i += CHUNK) {
        const chunk = items.slice(i, i + CHUNK).map((s) => ({ ...s, id: newId('sug'), fingerprint: suggestionFingerprint(s) }));
        const { rows: written } = await db.raw(
          `INSERT INTO synonym_suggestions (id, tenant_id, kind, terms, input, outputs, evidence, score, fingerprint)
           SELECT v.id, ?, v.kind, ARRAY(SELECT jsonb_array_elements_text(v.terms)), v.input, ARRAY(SELECT jsonb_array_elements_text(v.outputs)),
                  v.evidence, v.score, v.fingerprint
             FROM jsonb_to_recordset(?::jsonb) AS v(id text, kind text, terms jsonb, input text, outputs jsonb, evidence jsonb, score float8, fingerprint text)
           ON CONFLICT (tenant_id, fingerprint) DO UPDATE SET evidence = excluded.evidence, score = excluded.score
            WHERE synonym_suggestions.status = 'pending'
           RETURNING (xmax = 0) AS created`,
          [tenantId, JSON.stringify(chunk)],
        );
        for (const r of written as Array<{ created: boolean }>) r.created ? created++ : refreshed++;
      }
      return { created, refreshed, decided: items.length - created - refreshed };
    },
    /** Newest first, by (created_at, id) descending; `cursor_at` keeps the full timestamp precision for the cursor. */
    async list(tenantId: string, opts: { status: SuggestionStatus; before?: { at: string; id: string }; limit: number }) {
      const q = rows(tenantId).andWhere({ status: opts.status }).select('*', db.raw(`to_json(created_at) #>> '{}' AS cursor_at`));
      if (opts.before) q.andWhereRaw('(created_at, id) < (?::timestamptz, ?)', [opts.before.at, opts.before.id]);
      return (await q
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(opts.limit)) as Array<SuggestionRow & { cursor_at: string }>;
    },
    async count(tenantId: string, status: SuggestionStatus): Promise<number> {
      const [{ n }] = await rows(tenantId).andWhere({ status }).count<{ n: string }[]>({ n: '*' });
      return Number(n);
    },
    async find(tenantId: string, id: string): Promise<SuggestionRow | undefined> {
      return rows(tenantId).andWhere({ id }).first();
    },
    /**
     * Decides a pending suggestion in one transaction. approve: the rule is added to the `default`
     * set (source suggested); an equal rule already there is linked (and enabled) instead.
     * 409 suggestion_decided when it was decided before; undefined when there is no such suggestion.
     */
    async decide(tenantId: string, id: string, decision: 'approve' | 'reject'): Promise<SuggestionRow | undefined> {
      return db.transaction(async (trx) => {
        const s = await rows(tenantId, trx).andWhere({ id }).forUpdate().first();
        if (!s) return undefined;
        if (s.status !== 'pending') {
          throw new AppError('suggestion_decided', 409, `the suggestion was already ${s.status}`, {
            status: s.status,
            decided_at: s.decided_at?.toISOString() ?? null,
          });
        }
        let synonymId: string | null = null;
        if (decision === 'approve') {
          const {
            rows: [rule],
          } = await trx.raw(
            `INSERT INTO synonyms (id, tenant_id, kind, terms, input, outputs, set_key, enabled, source, fingerprint)
             VALUES (?, ?, ?, ?::text[], ?, ?::text[], ?, true, 'suggested', ?)
             ON CONFLICT ((coalesce(tenant_id, '')), set_key, md5(fingerprint))
             DO UPDATE SET enabled = true, updated_at = CASE WHEN synonyms.enabled THEN synonyms.updated_at ELSE now() END
             RETURNING id`,
            [newId('syn'), tenantId, s.kind, s.terms, s.input, s.outputs, SUGGESTED_SET, suggestionFingerprint(s)],
          );
          synonymId = rule.id;
        }
        const [row] = await rows(tenantId, trx)
          .andWhere({ id })
          .update({ status: decision === 'approve' ? 'approved' : 'rejected', decided_at: trx.fn.now() as unknown as Date, synonym_id: synonymId })
          .returning('*');
        return row as SuggestionRow;
      });
    },
  };
}
export type SuggestionsRepo = ReturnType<typeof suggestionsRepo>;
