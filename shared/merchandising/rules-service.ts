import { AppError, notFound, type FieldError } from '../platform/errors.js';
import { canonicalJson } from '../platform/ids.js';
import type { Notices } from '../platform/notices.js';
import type { RuleRow, RulesRepo } from './rules.repo.js';
import type { RuleFields } from './rule.schema.js';
import type { FilterValue } from '../engines/lexical/port.js';
import { createdAtProblem, protoFilterProblems, ruleFilters, ruleProblems } from './rule-checks.js';

/** RuleOut: the stored rule with its id and times (what lists, exports and writes answer). */
export function toRuleOut(row: RuleRow) {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    priority: row.priority,
    conditions: row.conditions,
    consequences: row.consequences,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
export type RuleOutT = ReturnType<typeof toRuleOut>;

export interface ImportRule extends RuleFields {
  id?: string | null;
  /** From an export: kept, so the conflict order's "older rule" is the same after an import. */
  created_at?: string;
}

interface ServiceDeps {
  notices: Pick<Notices, 'publish'>;
  repos: { rules: RulesRepo };
  /** The filter names a tenant's searches accept (built-in and mapped facet attributes). */
  knownFilters(tenantId: string): Promise<Set<string>>;
  /** What is wrong with a filter value's shape (search's own check), so a rule's filter is refused as a shopper's would be. */
  filterShapeProblem(name: string, value: FilterValue): string | null;
}

function fail(problems: FieldError[]): never {
  const first = problems[0];
  const unknown = problems.every((p) => p.code === 'unknown_filter');
  throw new AppError(unknown ? 'unknown_filter' : 'validation_failed', 400, `invalid body: ${first.field}: ${first.message}`, problems);
}

const fieldsOf = (r: RuleRow | ImportRule): RuleFields => ({
  name: r.name,
  enabled: r.enabled,
  priority: r.priority,
  conditions: r.conditions,
  consequences: r.consequences,
});

/** Rule writes: checked beyond the schema, then stored; every change is announced so each API process recompiles the tenant's rules. */
export function rulesService(deps: ServiceDeps) {
  const repo = deps.repos.rules;
  const changed = (tenantId: string) => deps.notices.publish('rules', tenantId);
  /** `sent`: the rules as the client sent them (before zod), for what the parse drops (a `__proto__` filter). */
  async function problemsOf(tenantId: string, rules: RuleFields[], at: (i: number) => string, sent: unknown[] = []): Promise<FieldError[]> {
    const known = await deps.knownFilters(tenantId);
    const filterProblem = (f: { name: string; value: FilterValue; field: string }): FieldError[] => {
      if (!known.has(f.name)) {
        return [{ in: 'body', field: f.field, code: 'unknown_filter', message: `${f.name} is not a filter of this store (known: ${[...known].join(', ')})` }];
      }
      const shape = deps.filterShapeProblem(f.name, f.value);
      return shape ? [{ in: 'body', field: f.field, code: 'invalid_filter', message: shape }] : [];
    };
    return rules.flatMap((r, i) => [...ruleProblems(r, at(i)), ...protoFilterProblems(sent[i], at(i)), ...ruleFilters(r, at(i)).flatMap(filterProblem)]);
  }
  async function check(tenantId: string, rules: RuleFields[], at: (i: number) => string, sent: unknown[]) {
    const problems = await problemsOf(tenantId, rules, at, sent);
    if (problems.length) fail(problems);
  }
  return {
    /** `sent`: the body as the client sent it (see problemsOf). */
    async create(tenantId: string, fields: RuleFields, sent?: unknown): Promise<RuleRow> {
      await check(tenantId, [fields], () => '', [sent]);
      const row = await repo.insert(tenantId, fields);
      await changed(tenantId);
      return row;
    },
    async replace(tenantId: string, id: string, fields: RuleFields, sent?: unknown): Promise<RuleRow> {
      await check(tenantId, [fields], () => '', [sent]);
      const row = await repo.replace(tenantId, id, fields);
      if (!row) throw notFound('rule');
      await changed(tenantId);
      return row;
    },
    async remove(tenantId: string, id: string): Promise<boolean> {
      const removed = (await repo.remove(tenantId, [id])) > 0;
      if (removed) await changed(tenantId);
      return removed;
    },
    async export(tenantId: string) {
      return { rules: (await repo.all(tenantId)).map(toRuleOut) };
    },
    /**
     * All or nothing: every rule is checked first (a problem anywhere is a 400 naming `rules.<i>.<field>`).
     * A rule with the id of a stored rule replaces it (unchanged when equal), one with a new id is
     * created with that id, one without an id gets a new one; `replace` also deletes the rules the
     * file does not name. An export imported again changes nothing.
     */
    async import(tenantId: string, rules: ImportRule[], mode: 'merge' | 'replace', sent: unknown[] = []) {
      const ids = rules.map((r) => r.id).filter((id): id is string => !!id);
      const seen = new Set<string>();
      const problems: FieldError[] = [];
      rules.forEach((r, i) => {
        if (r.id && seen.has(r.id)) problems.push({ in: 'body', field: `rules.${i}.id`, code: 'duplicate', message: `id ${r.id} appears twice in the file` });
        if (r.id) seen.add(r.id);
        const when = r.created_at === undefined ? null : createdAtProblem(r.created_at);
        if (when) problems.push({ in: 'body', field: `rules.${i}.created_at`, ...when });
      });
      problems.push(...(await problemsOf(tenantId, rules.map(fieldsOf), (i) => `rules.${i}.`, sent)));
      if (problems.length) fail(problems);
      const result = await repo.withLock(tenantId, async (trx) => {
        const stored = new Map((await repo.all(tenantId, trx)).map((r) => [r.id, r]));
        const counts = { created: 0, updated: 0, unchanged: 0, deleted: 0 };
        for (const rule of rules) {
          const fields = fieldsOf(rule);
          const prev = rule.id ? stored.get(rule.id) : undefined;
          if (!prev) {
            // Checked above (years 0001-9999): its UTC ISO form is one Postgres reads as JavaScript does.
            const age = rule.created_at ? new Date(rule.created_at).toISOString() : undefined;
            await repo.insert(tenantId, fields, rule.id ?? undefined, trx, age);
            counts.created++;
          } else if (canonicalJson(fieldsOf(prev)) === canonicalJson(fields)) {
            counts.unchanged++;
          } else {
            await repo.replace(tenantId, prev.id, fields, trx);
            counts.updated++;
          }
        }
        if (mode === 'replace') {
          const keep = new Set(ids);
          counts.deleted = await repo.remove(
            tenantId,
            [...stored.keys()].filter((id) => !keep.has(id)),
            trx,
          );
        }
        return counts;
      });
      if (result.created || result.updated || result.deleted) await changed(tenantId);
      return result;
    },
  };
}
export type RulesService = ReturnType<typeof rulesService>;
