import type { ImportPlan, SynonymRow, SynonymScope, SynonymsRepo } from './synonyms.repo.js';
import type { Notices } from '../platform/notices.js';
import { invalidText } from '../text/valid-text.js';
import { prepareRule, sameRule, SynonymIn, toSynonymIn, type RuleFields } from './rule.js';
import type { Format, LineError, ParsedFile } from './formats.js';
import { formatJson, parseJson } from './json-format.js';
import { formatCsv, parseCsv } from './csv-format.js';
import { formatSolr, parseSolr } from './solr-format.js';

export const MAX_IMPORT_CHARS = 2_000_000;
/** Error messages kept in a result; the last one says how many more there were. */
const MAX_ERROR_MESSAGES = 1000;

export interface ImportOptions {
  format: Format;
  content: string;
  /** merge: update matching rules, create the rest. replace: the file's sets become exactly the file's rules. */
  mode: 'merge' | 'replace';
  /** Set of rules that name none (all Solr lines without a `#@` set_key); default `default`. */
  setKey?: string | null;
}

export interface ImportResult {
  created: number;
  updated: number;
  skipped: number;
  deleted: number;
  errors: string[];
}

type ImportDeps = { notices: Pick<Notices, 'publish'>; repos: { synonyms: SynonymsRepo } };

const PARSERS: Record<Format, (content: string) => ParsedFile> = { json: parseJson, csv: parseCsv, solr: parseSolr };

/** File content of the scope's rules (optionally one set), in the given format. */
export async function exportSynonyms(repo: SynonymsRepo, scope: SynonymScope, format: Format, setKey?: string | null): Promise<string> {
  const rules = (await repo.all(scope, setKey)).map(toSynonymIn);
  return format === 'json' ? formatJson(rules) : format === 'csv' ? formatCsv(rules) : formatSolr(rules);
}

/**
 * Applies a file: valid rules are applied in one transaction while invalid lines are reported by
 * line number. A rule matches a stored one by set_key and normalized identity (fingerprint); an
 * identical match is skipped, so importing an export again changes nothing. In replace mode the sets
 * named by the file's valid rules lose every rule the file does not hold; a file without any rule
 * and without errors empties the `setKey` set. Counts are per rule (a Solr line `a, b => c` is two).
 */
export async function importSynonyms(deps: ImportDeps, scope: SynonymScope, opts: ImportOptions): Promise<ImportResult> {
  const parsed = PARSERS[opts.format](opts.content);
  const errors: LineError[] = [...parsed.errors];
  const fallbackSet = opts.setKey ?? 'default';
  const wanted = new Map<string, { line: number; rule: RuleFields }>();
  for (const item of parsed.items) {
    // The route leaves `content` to this per-rule check, so one bad character fails its own line only.
    const [badText] = invalidText(item.value, { max: 1 });
    if (badText) {
      errors.push({ line: item.line, message: `${badText.field}: ${badText.message}` });
      continue;
    }
    const checked = SynonymIn.safeParse(item.value);
    if (!checked.success) {
      errors.push({ line: item.line, message: checked.error.issues.map((i) => `${i.path.join('.') || 'rule'}: ${i.message}`).join('; ') });
      continue;
    }
    const { rule, errors: fieldErrors } = prepareRule(checked.data, fallbackSet);
    if (!rule) {
      errors.push({ line: item.line, message: fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ') });
      continue;
    }
    const key = `${rule.set_key}\n${rule.fingerprint}`;
    const first = wanted.get(key);
    if (first) errors.push({ line: item.line, message: `the same rule as line ${first.line} (set "${rule.set_key}")` });
    else wanted.set(key, { line: item.line, rule });
  }
  const sets = new Set([...wanted.values()].map((w) => w.rule.set_key));
  if (opts.mode === 'replace' && !wanted.size && !errors.length) sets.add(fallbackSet);

  const repo = deps.repos.synonyms;
  const counts = await repo.withImportLock(scope, async (trx) => {
    const existing = new Map((await repo.inSets(scope, [...sets], trx)).map((r: SynonymRow) => [`${r.set_key}\n${r.fingerprint}`, r]));
    const plan: ImportPlan = { inserts: [], updates: [], deletes: [] };
    let skipped = 0;
    for (const [key, { rule }] of wanted) {
      const row = existing.get(key);
      if (!row) plan.inserts.push(rule);
      else if (sameRule(row, rule)) skipped++;
      else plan.updates.push({ ...rule, id: row.id });
    }
    if (opts.mode === 'replace') for (const [key, row] of existing) if (!wanted.has(key)) plan.deletes.push(row);
    const { inserted, updated, deleted } = await repo.applyImport(scope, plan, 'import', trx);
    // An insert that met an equal rule created concurrently is a no-op: count it as skipped.
    return { created: inserted, updated, skipped: skipped + plan.inserts.length - inserted, deleted };
  });
  if (counts.created + counts.updated + counts.deleted > 0) await deps.notices.publish('synonyms', scope ?? '*');
  return { ...counts, errors: messages(errors) };
}

function messages(errors: LineError[]): string[] {
  const sorted = [...errors].sort((a, b) => a.line - b.line);
  const out = sorted.slice(0, MAX_ERROR_MESSAGES).map((e) => `line ${e.line}: ${e.message}`);
  if (sorted.length > MAX_ERROR_MESSAGES) out.push(`${sorted.length - MAX_ERROR_MESSAGES} more errors not shown`);
  return out;
}
