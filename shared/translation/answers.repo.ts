import type { Knex } from 'knex';
import { FAILED_JOB_KEPT_DAYS } from '../platform/queue/queues.js';
import { usageMonth, usageRepo } from './usage.repo.js';

/** The translate-fields job an answer belongs to: its retries share the scope, other runs do not. */
export interface AnswerScope {
  tenantId: string;
  runId: string;
  chunk: number;
  target: string;
}

/** A provider answer for one batch: translated texts by the batch's ids, and what the call cost. */
export interface KeptAnswer {
  texts: Record<string, string>;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  costRecorded: boolean;
}

interface AnswerRow {
  batch_key: string;
  texts: Record<string, string>;
  input_tokens: string;
  output_tokens: string;
  cost_micros: string;
  cost_recorded: boolean;
}

const toAnswer = (r: AnswerRow): KeptAnswer => ({
  texts: r.texts,
  inputTokens: Number(r.input_tokens),
  outputTokens: Number(r.output_tokens),
  costMicros: Number(r.cost_micros),
  costRecorded: r.cost_recorded,
});

/** How long answers of a chunk that never finished (a failed pipeline) are kept, once their cost is counted. */
export const ANSWERS_KEPT_DAYS = 7;
const KEEP_UNFINISHED = `${ANSWERS_KEPT_DAYS} days`;
/**
 * Past this age an answer whose cost is still not counted belongs to a translate-fields job that
 * failed for good: its attempts are minutes apart, and the queue dashboard can retry it only while
 * BullMQ keeps the failed job. Maintenance then counts the cost (recordLeftCosts).
 */
export const UNCOUNTED_KEPT_DAYS = FAILED_JOB_KEPT_DAYS + 1;

/**
 * Provider answers kept per translate-fields job and batch content (migration 028): paid for once,
 * their cost added to the month's usage once, reused by a retry of the job.
 */
export function answersRepo(db: Knex) {
  const where = (s: AnswerScope) => ({ tenant_id: s.tenantId, run_id: s.runId, chunk: s.chunk });
  const repo = {
    /** The repo bound to one translate-fields job: the store translateItems keeps its answers in. */
    forJob: (s: AnswerScope) => ({
      find: (keys: string[]) => repo.find(s, keys),
      keep: (key: string, a: Omit<KeptAnswer, 'costRecorded'>) => repo.keep(s, key, a),
      recordCost: async (key: string) => void (await repo.recordCost(s, key)),
    }),
    /** The answers an earlier attempt of the job kept, by batch key. */
    async find(s: AnswerScope, keys: string[]): Promise<Map<string, KeptAnswer>> {
      if (!keys.length) return new Map();
      const rows: AnswerRow[] = await db('translation_answers').where(where(s)).whereIn('batch_key', keys);
      return new Map(rows.map((r) => [r.batch_key, toAnswer(r)]));
    },
    /**
     * Keeps a paid answer (cost not recorded yet) and returns the kept one. When another attempt of
     * the job kept the batch first (a stalled job run twice at once), that one stays, and this
     * call's cost, paid all the same, is added to usage here.
     */
    async keep(s: AnswerScope, key: string, a: Omit<KeptAnswer, 'costRecorded'>): Promise<KeptAnswer> {
      return db.transaction(async (trx) => {
        const { rows } = await trx.raw(
          `INSERT INTO translation_answers (tenant_id, run_id, chunk, batch_key, target_locale, texts, input_tokens, output_tokens, cost_micros)
           VALUES (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING *`,
          [s.tenantId, s.runId, s.chunk, key, s.target, JSON.stringify(a.texts), a.inputTokens, a.outputTokens, a.costMicros],
        );
        if (rows[0]) return toAnswer(rows[0]);
        await usageRepo(trx).addCost(s.tenantId, s.target, { micros: a.costMicros, inputTokens: a.inputTokens, outputTokens: a.outputTokens, calls: 1 });
        return toAnswer(await trx('translation_answers').where(where(s)).andWhere({ batch_key: key }).first());
      });
    },
    /** Adds a kept answer's cost to the usage of the month it was paid in, once: the flag flips in the same transaction. True if this call counted it. */
    async recordCost(s: AnswerScope, key: string): Promise<boolean> {
      return db.transaction(async (trx) => {
        const [row] = await trx('translation_answers')
          .where(where(s))
          .andWhere({ batch_key: key, cost_recorded: false })
          .update({ cost_recorded: true })
          .returning(['input_tokens', 'output_tokens', 'cost_micros', 'created_at']);
        if (!row) return false;
        const cost = { micros: Number(row.cost_micros), inputTokens: Number(row.input_tokens), outputTokens: Number(row.output_tokens), calls: 1 };
        await usageRepo(trx).addCost(s.tenantId, s.target, cost, usageMonth(row.created_at));
        return true;
      });
    },
    /**
     * Counts the cost of answers left uncounted over `days` (a job that failed for good: the provider
     * charged for them), `batch` at a time, each through recordCost: a run racing this one, or a late
     * retry of the job, finds the flag flipped and counts nothing. Returns how many this call counted.
     */
    async recordLeftCosts(days: number, batch: number, signal?: AbortSignal): Promise<number> {
      let counted = 0;
      let after: [string, string, number, string] = ['', '', -1, ''];
      for (;;) {
        signal?.throwIfAborted();
        const rows: Array<{ tenant_id: string; run_id: string; chunk: number; batch_key: string; target_locale: string }> = await db('translation_answers')
          .where({ cost_recorded: false })
          .whereRaw(`created_at < now() - make_interval(days => ?)`, [days])
          .whereRaw('(tenant_id, run_id, chunk, batch_key) > (?, ?, ?, ?)', after)
          .orderBy(['tenant_id', 'run_id', 'chunk', 'batch_key'])
          .limit(batch)
          .select('tenant_id', 'run_id', 'chunk', 'batch_key', 'target_locale');
        for (const r of rows) {
          if (await repo.recordCost({ tenantId: r.tenant_id, runId: r.run_id, chunk: r.chunk, target: r.target_locale }, r.batch_key)) counted++;
        }
        if (rows.length < batch) return counted;
        const last = rows[rows.length - 1];
        after = [last.tenant_id, last.run_id, last.chunk, last.batch_key];
      }
    },
    /** Drops a finished chunk's answers, and the tenant's paid-for answers of chunks that never finished. */
    async forget(tenantId: string, runId: string, chunk: number): Promise<number> {
      return db('translation_answers')
        .where({ tenant_id: tenantId })
        .andWhere((w) =>
          w.where({ run_id: runId, chunk }).orWhere((old) => old.where({ cost_recorded: true }).whereRaw(`created_at < now() - interval '${KEEP_UNFINISHED}'`)),
        )
        .delete();
    },
  };
  return repo;
}
export type AnswersRepo = ReturnType<typeof answersRepo>;
