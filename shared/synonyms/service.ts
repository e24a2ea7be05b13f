import { AppError, notFound } from '../platform/errors.js';
import type { SynonymRow, SynonymScope, SynonymsRepo } from './synonyms.repo.js';
import type { Notices } from '../platform/notices.js';
import { prepareRule, toSynonymIn, type RuleFields, type SynonymInput, type SynonymSource } from './rule.js';
import { exportSynonyms, importSynonyms, type ImportOptions } from './import.js';
import type { Format } from './formats.js';

type ServiceDeps = { notices: Pick<Notices, 'publish'>; repos: { synonyms: SynonymsRepo } };

/** A rule that fails the shape checks: 400 validation_failed with one detail per problem. */
export function checkedRule(input: SynonymInput, defaultSet = 'default'): RuleFields {
  const { rule, errors } = prepareRule(input, defaultSet);
  if (rule) return rule;
  const first = errors[0];
  throw new AppError(
    'validation_failed',
    400,
    `invalid body: ${first.field}: ${first.message}`,
    errors.map((e) => ({ in: 'body', ...e })),
  );
}

/**
 * Synonym writes shared by the API (scope = tenant id) and the operator CLI (scope = null: global
 * rules). Every successful write announces the change on the synonyms-changed channel.
 */
export function synonymService(deps: ServiceDeps) {
  const repo = deps.repos.synonyms;
  const changed = (scope: SynonymScope) => deps.notices.publish('synonyms', scope ?? '*');
  return {
    async create(scope: SynonymScope, input: SynonymInput, source: SynonymSource = 'manual'): Promise<SynonymRow> {
      const row = await repo.insert(scope, checkedRule(input), source);
      await changed(scope);
      return row;
    },
    /** Full replace: fields left out take their defaults; the source stays. */
    async replace(scope: SynonymScope, id: string, input: SynonymInput): Promise<SynonymRow> {
      const row = await repo.replace(scope, id, checkedRule(input));
      if (!row) throw notFound('synonym');
      await changed(scope);
      return row;
    },
    async remove(scope: SynonymScope, id: string): Promise<boolean> {
      const removed = await repo.remove(scope, id);
      if (removed) await changed(scope);
      return removed;
    },
    /** Copies a global rule into the tenant's own rules (source global_copy), into `opts.set_key` or `default`. */
    async copyGlobal(tenantId: string, globalId: string, opts: { set_key?: string; enabled?: boolean }): Promise<SynonymRow> {
      const global = await repo.find(null, globalId);
      if (!global) throw notFound('global synonym');
      const input = { ...toSynonymIn(global), set_key: opts.set_key ?? 'default', enabled: opts.enabled ?? true };
      const row = await repo.insert(tenantId, checkedRule(input), 'global_copy');
      await changed(tenantId);
      return row;
    },
    import: (scope: SynonymScope, opts: ImportOptions) => importSynonyms(deps, scope, opts),
    export: (scope: SynonymScope, format: Format, setKey?: string | null) => exportSynonyms(repo, scope, format, setKey),
  };
}
export type SynonymService = ReturnType<typeof synonymService>;
