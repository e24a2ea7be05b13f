import type { Knex } from 'knex';
import { AppError, notFound, type FieldError } from '../platform/errors.js';
import type { Notices } from '../platform/notices.js';
import type { ExperimentFields, ExperimentRow, ExperimentsRepo } from './experiments.repo.js';
import { variantProblems } from './experiment.schema.js';
import { experimentResults, variantCounts } from './results.js';

interface ServiceDeps {
  db: Knex;
  notices: Pick<Notices, 'publish'>;
  repos: { experiments: ExperimentsRepo };
  /** The ids among `ids` that are rules of the tenant. */
  existingRules(tenantId: string, ids: string[]): Promise<string[]>;
}

/** ExperimentOut: the stored experiment as the API shows it. */
export function toExperimentOut(row: ExperimentRow) {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    variants: row.variants,
    primary_metric: row.primary_metric,
    min_sample: row.min_sample,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    started_at: iso(row.started_at),
    stopped_at: iso(row.stopped_at),
  };
}

/** Experiment writes and results; starting or stopping one is announced so every API process assigns sessions by the new state. */
export function experimentsService(deps: ServiceDeps) {
  const repo = deps.repos.experiments;
  const changed = (tenantId: string) => deps.notices.publish('experiments', tenantId);
  async function check(tenantId: string, f: ExperimentFields) {
    const problems: FieldError[] = variantProblems(f.variants).map((p) => ({ in: 'body', ...p }));
    const ruleIds = [...new Set(f.variants.flatMap((v) => v.rule_ids))];
    const known = new Set(await deps.existingRules(tenantId, ruleIds));
    f.variants.forEach((v, i) =>
      v.rule_ids.forEach((id, j) => {
        if (!known.has(id)) problems.push({ in: 'body', field: `variants.${i}.rule_ids.${j}`, code: 'unknown_rule', message: `no rule ${id} in this store` });
      }),
    );
    if (problems.length) throw new AppError('validation_failed', 400, `invalid body: ${problems[0].field}: ${problems[0].message}`, problems);
  }
  async function existing(tenantId: string, id: string): Promise<ExperimentRow> {
    const row = await repo.find(tenantId, id);
    if (!row) throw notFound('experiment');
    return row;
  }
  /**
   * Start and stop: `move` answers the row as it now is, or undefined when its UPDATE matched nothing
   * because another request moved the row first (parallel starts: one wins). The row is then read
   * again, so a start (stop) that lost to another start (stop) is the documented no-op, not a 409.
   * The change is announced only when this call made it; a row that keeps changing under it is 409.
   */
  async function settle(tenantId: string, id: string, move: (row: ExperimentRow) => Promise<ExperimentRow | undefined>): Promise<ExperimentRow> {
    for (let round = 0; round < 3; round++) {
      const row = await existing(tenantId, id);
      const after = await move(row);
      if (!after) continue;
      if (after !== row) await changed(tenantId);
      return after;
    }
    throw new AppError('experiment_conflict', 409, 'the experiment keeps changing meanwhile; read it again');
  }
  return {
    async create(tenantId: string, f: ExperimentFields): Promise<ExperimentRow> {
      await check(tenantId, f);
      return repo.insert(tenantId, f);
    },
    /** Only a draft can change: results of a running or stopped experiment must stay tied to what ran. */
    async replace(tenantId: string, id: string, f: ExperimentFields): Promise<ExperimentRow> {
      const row = await existing(tenantId, id);
      if (row.status !== 'draft') throw new AppError('experiment_not_draft', 409, `experiment is ${row.status}; only a draft can be changed`);
      await check(tenantId, f);
      const updated = await repo.replaceDraft(tenantId, id, f);
      if (updated) return updated;
      // Nothing replaced: a DELETE took it meanwhile (404), or a start moved it on (409).
      const now = await repo.find(tenantId, id);
      if (!now) throw notFound('experiment');
      throw new AppError('experiment_not_draft', 409, `experiment is ${now.status}; only a draft can be changed`);
    },
    async remove(tenantId: string, id: string): Promise<void> {
      const row = await existing(tenantId, id);
      if (row.status === 'running') throw new AppError('experiment_running', 409, 'stop the experiment before deleting it');
      if (await repo.remove(tenantId, id)) return;
      // Nothing deleted: another DELETE took it meanwhile (404, as a DELETE after it answers), or a start did.
      if (!(await repo.find(tenantId, id))) throw notFound('experiment');
      throw new AppError('experiment_running', 409, 'the experiment was started meanwhile');
    },
    /** draft or stopped -> running; at most one running experiment per store (409 experiment_already_running names it). */
    async start(tenantId: string, id: string): Promise<ExperimentRow> {
      return settle(tenantId, id, async (row) => {
        if (row.status === 'running') return row;
        try {
          return await repo.transition(tenantId, id, ['draft', 'stopped'], 'running');
        } catch (err) {
          if ((err as { code?: string }).code !== '23505') throw err;
          const other = await repo.running(tenantId);
          // The one it was refused for stopped meanwhile: another round tries the start again.
          if (!other) return undefined;
          throw new AppError('experiment_already_running', 409, `experiment ${other.id} is running; stop it first`, { running_id: other.id });
        }
      });
    },
    /** running -> stopped (stopping a stopped one is a no-op; a draft cannot be stopped). */
    async stop(tenantId: string, id: string): Promise<ExperimentRow> {
      return settle(tenantId, id, async (row) => {
        if (row.status === 'stopped') return row;
        if (row.status === 'draft') throw new AppError('experiment_not_running', 409, 'the experiment has not been started');
        return repo.transition(tenantId, id, ['running'], 'stopped');
      });
    },
    async results(tenantId: string, id: string) {
      const row = await existing(tenantId, id);
      return experimentResults(row, await variantCounts(deps.db, tenantId, id));
    },
  };
}
export type ExperimentsService = ReturnType<typeof experimentsService>;
