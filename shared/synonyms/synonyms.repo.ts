import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';
import { AppError } from '../platform/errors.js';
import { FINGERPRINT_PREFIX_LENGTH, type Conditions, type RuleFields, type SynonymKind, type SynonymSource } from './rule.js';

export interface SynonymRow {
  id: string;
  /** null: a platform (global) rule. */
  tenant_id: string | null;
  kind: SynonymKind;
  terms: string[];
  input: string | null;
  outputs: string[];
  conditions: Conditions | null;
  locale: string | null;
  set_key: string;
  enabled: boolean;
  source: SynonymSource;
  fingerprint: string;
  created_at: Date;
  updated_at: Date;
}

/** Whose rules: a tenant id, or null for the platform's global rules. */
export type SynonymScope = string | null;

/** Updates and deletes name the stored rule as the import read it (id, set and identity). */
type ReadRule = Pick<SynonymRow, 'id' | 'set_key' | 'fingerprint'>;

export interface ImportPlan {
  inserts: RuleFields[];
  updates: Array<RuleFields & { id: string }>;
  deletes: ReadRule[];
}

const CHUNK = 1000;

export function synonymsRepo(db: Knex) {
  const rules = (scope: SynonymScope, trx: Knex = db) => {
    const q = trx<SynonymRow>('synonyms');
    return scope === null ? q.whereNull('tenant_id') : q.where('tenant_id', scope);
  };
  /** The unique index turns a concurrent or repeated rule into a 409 naming the rule that holds the place. */
  const asDuplicate = async (err: unknown, scope: SynonymScope, fields: RuleFields): Promise<never> => {
    if ((err as { code?: string }).code !== '23505') throw err;
    const existing = await rules(scope).where({ set_key: fields.set_key, fingerprint: fields.fingerprint }).first('id');
    throw new AppError('synonym_duplicate', 409, `the same rule already exists in set "${fields.set_key}" as ${existing?.id ?? 'another rule'}`, {
      existing_id: existing?.id ?? null,
      set_key: fields.set_key,
    });
  };
  return {
    /** Oldest first, by (created_at, id); `q` matches any normalized term, input or output (substring). */
    async list(scope: SynonymScope, opts: { after?: { at: string; id: string }; limit: number; q?: string; setKey?: string | null }) {
      const q = rules(scope).select('*', db.raw(`to_json(created_at) #>> '{}' AS cursor_at`));
      if (opts.after) q.andWhereRaw('(created_at, id) > (?::timestamptz, ?)', [opts.after.at, opts.after.id]);
      if (opts.setKey) q.andWhere('set_key', opts.setKey);
      if (opts.q) q.andWhereRaw('substr(fingerprint, ?) LIKE ?', [FINGERPRINT_PREFIX_LENGTH + 1, `%${opts.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
      return (await q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(opts.limit)) as Array<SynonymRow & { cursor_at: string }>;
    },
    async find(scope: SynonymScope, id: string): Promise<SynonymRow | undefined> {
      return rules(scope).where({ id }).first();
    },
    /** The enabled rules that apply to a tenant's searches: its own and the platform's global ones. */
    async enabledFor(tenantId: string): Promise<SynonymRow[]> {
      return db('synonyms')
        .where({ enabled: true })
        .andWhere((w) => w.where({ tenant_id: tenantId }).orWhereNull('tenant_id'));
    },
    /** Every rule of the scope (optionally one set), in a stable order: for exports. */
    async all(scope: SynonymScope, setKey?: string | null): Promise<SynonymRow[]> {
      const q = rules(scope);
      if (setKey) q.andWhere('set_key', setKey);
      return q.orderBy([{ column: 'set_key' }, { column: 'created_at' }, { column: 'id' }]);
    },
    /** Inserts one rule; 409 synonym_duplicate when the set already holds the same rule. */
    async insert(scope: SynonymScope, fields: RuleFields, source: SynonymSource): Promise<SynonymRow> {
      try {
        const [row] = await db<SynonymRow>('synonyms')
          .insert({ id: newId('syn'), tenant_id: scope, ...fields, source })
          .returning('*');
        return row as SynonymRow;
      } catch (err) {
        return asDuplicate(err, scope, fields);
      }
    },
    /** Full replace of a rule's fields (its source stays); 409 synonym_duplicate when it would equal another rule. */
    async replace(scope: SynonymScope, id: string, fields: RuleFields): Promise<SynonymRow | undefined> {
      try {
        const [row] = await rules(scope)
          .where({ id })
          .update({ ...fields, updated_at: db.fn.now() as unknown as Date })
          .returning('*');
        return row as SynonymRow | undefined;
      } catch (err) {
        return asDuplicate(err, scope, fields);
      }
    },
    async remove(scope: SynonymScope, id: string): Promise<boolean> {
      return (await rules(scope).where({ id }).delete()) > 0;
    },
    /**
     * Runs `work` in a transaction holding the scope's import lock, so two imports of one tenant
     * never interleave their read-compare-write.
     */
    async withImportLock<T>(scope: SynonymScope, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
      return db.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`synonyms-import:${scope ?? '*'}`]);
        return work(trx);
      });
    },
    /** The rules of the given sets (what an import compares its file against). */
    async inSets(scope: SynonymScope, setKeys: string[], trx: Knex): Promise<SynonymRow[]> {
      if (!setKeys.length) return [];
      return rules(scope, trx).whereIn('set_key', setKeys);
    },
    /**
     * Applies an import plan in bulk; returns how many rows each part wrote. A concurrent equal rule
     * makes an insert a no-op; a rule replaced (another set or identity) or deleted since the import
     * read it is neither updated nor deleted: the import acts as if it ran before that write.
     */
    async applyImport(
      scope: SynonymScope,
      plan: ImportPlan,
      source: SynonymSource,
      trx: Knex,
    ): Promise<{ inserted: number; updated: number; deleted: number }> {
      let inserted = 0;
      let updated = 0;
      let deleted = 0;
      for (let i = 0; i < plan.inserts.length; i += CHUNK) {
        // A microsecond apart, so lists and exports (creation order) keep the file's order.
        const rows = plan.inserts.slice(i, i + CHUNK).map((f, j) => ({
          id: newId('syn'),
          tenant_id: scope,
          ...f,
          source,
          created_at: trx.raw(`now() + make_interval(secs => ?)`, [(i + j) / 1e6]),
        }));
        inserted += (await trx('synonyms').insert(rows).onConflict().ignore().returning('id')).length;
      }
      for (let i = 0; i < plan.updates.length; i += CHUNK) {
        const { rows } = await trx.raw(
          `UPDATE synonyms s SET
              terms = ARRAY(SELECT jsonb_array_elements_text(v.terms)), input = v.input,
              outputs = ARRAY(SELECT jsonb_array_elements_text(v.outputs)), conditions = nullif(v.conditions, 'null'::jsonb),
              locale = v.locale, enabled = v.enabled, updated_at = now()
             FROM jsonb_to_recordset(?::jsonb) AS v(id text, set_key text, fingerprint text, terms jsonb, input text, outputs jsonb,
                                                   conditions jsonb, locale text, enabled boolean)
            WHERE s.id = v.id AND s.tenant_id IS NOT DISTINCT FROM ? AND s.set_key = v.set_key AND s.fingerprint = v.fingerprint
            RETURNING s.id`,
          [JSON.stringify(plan.updates.slice(i, i + CHUNK)), scope],
        );
        updated += rows.length;
      }
      for (let i = 0; i < plan.deletes.length; i += CHUNK) {
        const { rows } = await trx.raw(
          `DELETE FROM synonyms s USING jsonb_to_recordset(?::jsonb) AS v(id text, set_key text, fingerprint text)
            WHERE s.id = v.id AND s.tenant_id IS NOT DISTINCT FROM ? AND s.set_key = v.set_key AND s.fingerprint = v.fingerprint
            RETURNING s.id`,
          [JSON.stringify(plan.deletes.slice(i, i + CHUNK).map(({ id, set_key, fingerprint }) => ({ id, set_key, fingerprint }))), scope],
        );
        deleted += rows.length;
      }
      return { inserted, updated, deleted };
    },
  };
}
export type SynonymsRepo = ReturnType<typeof synonymsRepo>;
