import { normalizeText, tokenize } from '../text/normalize.js';
import type { FilterValue } from '../engines/lexical/port.js';
import type { RuleRow } from './rules.repo.js';
import type { RuleConsequencesT } from './rule.schema.js';

/** Specificity of a pattern kind: `is` over `starts_with` over `contains`; a rule without patterns matches any query at 0. */
const SPECIFICITY = { is: 3, starts_with: 2, contains: 1 } as const;

/** A stored rule, compiled for matching. */
export interface CompiledRule {
  id: string;
  name: string;
  enabled: boolean;
  priority: number;
  createdAt: number;
  from: number | null;
  until: number | null;
  /** Filter context: every entry must be among the search's filters. */
  context: Array<{ name: string; values: Set<string> | boolean }>;
  hasPatterns: boolean;
  consequences: RuleConsequencesT;
}

/** A rule whose pattern matched the query, with the best matching pattern's specificity and length. */
export interface Candidate {
  rule: CompiledRule;
  specificity: number;
  length: number;
}

interface Entry {
  rule: CompiledRule;
  specificity: number;
  length: number;
  lang: string | null;
}

const words = (text: string) => tokenize(normalizeText(text));
const norm = (v: string) => normalizeText(v).trim();

/**
 * A tenant's rules compiled once per change (the per-process cache in search holds it): `is`
 * patterns in a map by whole query, `starts_with` and `contains` patterns in maps by their word
 * sequence, so matching a query costs one lookup per word prefix and per word run up to the
 * longest pattern, whatever the number of rules. No I/O on the search path.
 */
export class RuleIndex {
  readonly size: number;
  private is = new Map<string, Entry[]>();
  private starts = new Map<string, Entry[]>();
  private contains = new Map<string, Entry[]>();
  private always: Entry[] = [];
  private maxStarts = 0;
  private maxContains = 0;
  /** Every active_from / active_until of the rules, sorted: the cache key changes when one passes. */
  private boundaries: number[];

  constructor(rows: RuleRow[]) {
    this.size = rows.length;
    const bounds = new Set<number>();
    for (const row of rows) {
      const rule = compile(row);
      if (rule.from !== null) bounds.add(rule.from);
      if (rule.until !== null) bounds.add(rule.until);
      if (!rule.hasPatterns) this.always.push({ rule, specificity: 0, length: 0, lang: null });
      for (const p of row.conditions.patterns ?? []) {
        const w = words(p.text);
        if (!w.length) continue;
        const key = w.join(' ');
        const entry = { rule, specificity: SPECIFICITY[p.match], length: key.length, lang: p.lang ?? null };
        const map = p.match === 'is' ? this.is : p.match === 'starts_with' ? this.starts : this.contains;
        map.set(key, [...(map.get(key) ?? []), entry]);
        if (p.match === 'starts_with') this.maxStarts = Math.max(this.maxStarts, w.length);
        if (p.match === 'contains') this.maxContains = Math.max(this.maxContains, w.length);
      }
    }
    this.boundaries = [...bounds].sort((a, b) => a - b);
  }

  /** How many time-window boundaries have passed: part of the result cache key, so a cached answer never outlives a window. */
  epoch(now = Date.now()): number {
    let lo = 0;
    let hi = this.boundaries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.boundaries[mid] <= now) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Rules whose patterns match the normalized query (in the query's language), each once with its most specific pattern. */
  candidates(normalized: string, lang: string): Candidate[] {
    const best = new Map<string, Candidate>();
    const take = (entries: Entry[] | undefined) => {
      for (const e of entries ?? []) {
        if (e.lang && e.lang !== lang) continue;
        const prev = best.get(e.rule.id);
        if (!prev || e.specificity > prev.specificity || (e.specificity === prev.specificity && e.length > prev.length)) {
          best.set(e.rule.id, { rule: e.rule, specificity: e.specificity, length: e.length });
        }
      }
    };
    take(this.always);
    const w = tokenize(normalized);
    if (w.length) {
      take(this.is.get(w.join(' ')));
      let key = '';
      for (let k = 0; k < Math.min(w.length, this.maxStarts); k++) {
        key += (k ? ' ' : '') + w[k];
        take(this.starts.get(key));
      }
      for (let i = 0; i < w.length && this.maxContains; i++) {
        let run = '';
        for (let k = i; k < Math.min(w.length, i + this.maxContains); k++) {
          run += (k > i ? ' ' : '') + w[k];
          take(this.contains.get(run));
        }
      }
    }
    return [...best.values()];
  }
}

function compile(row: RuleRow): CompiledRule {
  const ctx = row.conditions.filters ?? {};
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    priority: row.priority,
    createdAt: new Date(row.created_at).getTime(),
    from: row.conditions.active_from ? Date.parse(row.conditions.active_from) : null,
    until: row.conditions.active_until ? Date.parse(row.conditions.active_until) : null,
    context: Object.entries(ctx).map(([name, v]) => ({ name, values: typeof v === 'boolean' ? v : new Set((Array.isArray(v) ? v : [v]).map(norm)) })),
    hasPatterns: (row.conditions.patterns ?? []).some((p) => words(p.text).length > 0),
    consequences: row.consequences,
  };
}

/** Whether the search's filters hold the rule's filter context (any listed value of each named filter). */
export function contextHolds(rule: CompiledRule, filters: Record<string, FilterValue>): boolean {
  for (const c of rule.context) {
    const f = filters[c.name];
    if (f === undefined || f === null) return false;
    if (typeof c.values === 'boolean') {
      const yes = f === true || f === 'true' || (Array.isArray(f) && f.includes('true'));
      if (yes !== c.values) return false;
      continue;
    }
    if (typeof f === 'object' && !Array.isArray(f)) return false;
    const given = (Array.isArray(f) ? f : [String(f)]).map(norm);
    const set = c.values;
    if (!given.some((v) => set.has(v))) return false;
  }
  return true;
}
