import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';
import type { RuleConditionsT, RuleConsequencesT, RuleFields } from './rule.schema.js';

export interface RuleRow {
  id: string;
  tenant_id: string;
  name: string;
  enabled: boolean;
  priority: number;
  conditions: RuleConditionsT;
  consequences: RuleConsequencesT;
  created_at: Date;
  updated_at: Date;
}

const columns = (f: RuleFields) => ({
  name: f.name,
  enabled: f.enabled,
  priority: f.priority,
  conditions: JSON.stringify(f.conditions),
  consequences: JSON.stringify(f.consequences),
});

export function rulesRepo(db: Knex) {
  const rules = (tenantId: string, trx: Knex = db) => trx<RuleRow>('merch_rules').where('tenant_id', tenantId);
  return {
    /**
     * Oldest first by (created_at, id); `q` is a substring of the name or of any pattern text. The cursor's
     * time is written in UTC: an imported rule may be centuries old, and in the server's own zone such an
     * instant takes the local mean time's offset in seconds ("+03:06:52"), which no cursor time has.
     */
    async list(tenantId: string, opts: { after?: { at: string; id: string }; limit: number; q?: string; enabled?: boolean | null }) {
      const q = rules(tenantId).select('*', db.raw(`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at`));
      if (opts.after) q.andWhereRaw('(created_at, id) > (?::timestamptz, ?)', [opts.after.at, opts.after.id]);
      if (opts.enabled !== undefined && opts.enabled !== null) q.andWhere('enabled', opts.enabled);
      if (opts.q) {
        const like = `%${opts.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q.andWhere((w) =>
          w
            .whereRaw('name ILIKE ?', [like])
            .orWhereRaw(`EXISTS (SELECT 1 FROM jsonb_array_elements(conditions->'patterns') p WHERE p->>'text' ILIKE ?)`, [like]),
        );
      }
      return (await q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(opts.limit)) as Array<RuleRow & { cursor_at: string }>;
    },
    async count(tenantId: string): Promise<number> {
      const [{ n }] = await rules(tenantId).count({ n: '*' });
      return Number(n);
    },
    async find(tenantId: string, id: string): Promise<RuleRow | undefined> {
      return rules(tenantId).where({ id }).first();
    },
    /** Every rule of the tenant, enabled or not (what search compiles; disabled ones can be switched on by an experiment variant). */
    async all(tenantId: string, trx: Knex = db): Promise<RuleRow[]> {
      return rules(tenantId, trx).orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    /** The ids of `ids` that are the tenant's rules. */
    async existing(tenantId: string, ids: string[]): Promise<string[]> {
      if (!ids.length) return [];
      return (await rules(tenantId).whereIn('id', ids).select('id')).map((r) => r.id);
    },
    /** `createdAt`: an imported rule keeps its age, so the conflict order (older rule first) is the same in the store it came from. */
    async insert(tenantId: string, fields: RuleFields, id = newId('rule'), trx: Knex = db, createdAt?: string): Promise<RuleRow> {
      const created = createdAt ?? trx.raw('clock_timestamp()');
      const [row] = await trx('merch_rules')
        .insert({ id, tenant_id: tenantId, ...columns(fields), created_at: created })
        .returning('*');
      return row as RuleRow;
    },
    async replace(tenantId: string, id: string, fields: RuleFields, trx: Knex = db): Promise<RuleRow | undefined> {
      const [row] = await rules(tenantId, trx)
        .where({ id })
        .update({ ...columns(fields), updated_at: db.fn.now() } as never)
        .returning('*');
      return row as RuleRow | undefined;
    },
    async remove(tenantId: string, ids: string[], trx: Knex = db): Promise<number> {
      if (!ids.length) return 0;
      return rules(tenantId, trx).whereIn('id', ids).delete();
    },
    /** Runs `work` in a transaction holding the tenant's rule import lock (two imports never interleave). */
    async withLock<T>(tenantId: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
      return db.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`merch-rules:${tenantId}`]);
        return work(trx);
      });
    },
  };
}
export type RulesRepo = ReturnType<typeof rulesRepo>;
