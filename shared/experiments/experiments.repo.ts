import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';
import type { ExperimentStatus, Metric, Variant } from './experiment.schema.js';

export interface ExperimentRow {
  id: string;
  tenant_id: string;
  name: string;
  status: ExperimentStatus;
  variants: Variant[];
  primary_metric: Metric;
  min_sample: number;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  stopped_at: Date | null;
}

export interface ExperimentFields {
  name: string;
  variants: Variant[];
  primary_metric: Metric;
  min_sample: number;
}

const columns = (f: ExperimentFields) => ({ name: f.name, variants: JSON.stringify(f.variants), primary_metric: f.primary_metric, min_sample: f.min_sample });

export function experimentsRepo(db: Knex) {
  const mine = (tenantId: string) => db<ExperimentRow>('experiments').where('tenant_id', tenantId);
  return {
    /** Oldest first by (created_at, id). */
    async list(tenantId: string, opts: { after?: { at: string; id: string }; limit: number; status?: ExperimentStatus | null }) {
      const q = mine(tenantId).select('*', db.raw(`to_json(created_at) #>> '{}' AS cursor_at`));
      if (opts.after) q.andWhereRaw('(created_at, id) > (?::timestamptz, ?)', [opts.after.at, opts.after.id]);
      if (opts.status) q.andWhere('status', opts.status);
      return (await q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(opts.limit)) as Array<ExperimentRow & { cursor_at: string }>;
    },
    async find(tenantId: string, id: string): Promise<ExperimentRow | undefined> {
      return mine(tenantId).where({ id }).first();
    },
    /** The store's running experiment, if any (at most one: a unique index holds it). */
    async running(tenantId: string): Promise<ExperimentRow | undefined> {
      return mine(tenantId).where({ status: 'running' }).first();
    },
    async insert(tenantId: string, fields: ExperimentFields): Promise<ExperimentRow> {
      const [row] = await db('experiments')
        .insert({ id: newId('exp'), tenant_id: tenantId, ...columns(fields) })
        .returning('*');
      return row as ExperimentRow;
    },
    /** Replaces the fields of a draft; undefined when there is no such draft. */
    async replaceDraft(tenantId: string, id: string, fields: ExperimentFields): Promise<ExperimentRow | undefined> {
      const [row] = await mine(tenantId)
        .where({ id, status: 'draft' })
        .update({ ...columns(fields), updated_at: db.fn.now() } as never)
        .returning('*');
      return row as ExperimentRow | undefined;
    },
    /** Moves to `to` from one of `from`; undefined when the experiment is in another state. A second running one violates the unique index (23505). */
    async transition(tenantId: string, id: string, from: ExperimentStatus[], to: ExperimentStatus): Promise<ExperimentRow | undefined> {
      const stamp = to === 'running' ? { started_at: db.fn.now(), stopped_at: null } : to === 'stopped' ? { stopped_at: db.fn.now() } : {};
      const [row] = await mine(tenantId)
        .where({ id })
        .whereIn('status', from)
        .update({ status: to, updated_at: db.fn.now(), ...stamp } as never)
        .returning('*');
      return row as ExperimentRow | undefined;
    },
    async remove(tenantId: string, id: string): Promise<boolean> {
      return (await mine(tenantId).where({ id }).whereNot('status', 'running').delete()) > 0;
    },
  };
}
export type ExperimentsRepo = ReturnType<typeof experimentsRepo>;
