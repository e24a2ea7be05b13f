import { AppError } from '../platform/errors.js';
import { categoryLevelKey, type FilterValue } from '../engines/lexical/port.js';
import type { AlgoliaParams } from './params.js';
import { parseFilterString, type Clause } from './filter-string.js';

type Filters = Record<string, FilterValue>;

/** `categories.lvl0`, `categories.lvl1`, ...: the category tree as InstantSearch's hierarchicalMenu reads it (separator `>`). */
export const HIERARCHY = /^categories\.lvl([0-9])$/;

/**
 * facetFilters, numericFilters and filters into the service's filters, all ANDed. Inside a group
 * (an inner array, or `(a OR b)`) values of ONE attribute are ORed; several groups on one
 * attribute keep the values they share (exact for single-valued attributes such as brand).
 * Negation, OR across attributes and `!=` are refused with 400 `unsupported_filter`.
 */
export function toFilters(p: AlgoliaParams): Filters {
  const out: Filters = {};
  const groups = [
    ...asGroups(p.facetFilters).map(facetGroup),
    ...asGroups(p.numericFilters).map(numericGroup),
    ...(p.filters?.trim() ? parseFilterString(p.filters).map(clauseGroup) : []),
  ];
  for (const g of groups) if (g) add(out, g);
  return out;
}

function asGroups(value: AlgoliaParams['facetFilters']): string[][] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [[value]];
  return value.map((item) => (typeof item === 'string' ? [item] : item)).filter((g) => g.length > 0);
}

/** `brand:Apple`; `\-` escapes a leading minus, a bare leading minus is negation (unsupported). */
function facetGroup(group: string[]): [string, FilterValue] | null {
  const parsed = group.map((f) => {
    const i = f.indexOf(':');
    if (i <= 0) throw unsupported(`"${f}" is not attribute:value`);
    let value = f.slice(i + 1);
    if (value.startsWith('-')) throw unsupported(`negation ("${f}") is not supported`);
    if (value.startsWith('\\-')) value = value.slice(1);
    return { name: f.slice(0, i).trim(), value };
  });
  return orGroup(parsed);
}

/** null: the group filters nothing out (in_stock true OR false). */
function orGroup(parsed: Array<{ name: string; value: string }>): [string, FilterValue] | null {
  const targets = parsed.map(({ name, value }) => target(name, value));
  const names = new Set(targets.map((t) => t[0]));
  if (names.size > 1) throw unsupported(`OR across attributes (${[...names].join(', ')}) is not supported`);
  const [name] = targets[0];
  if (name === 'in_stock') {
    const values = new Set(targets.map((t) => t[1]));
    return values.size > 1 ? null : [name, targets[0][1] === 'true'];
  }
  return [name, [...new Set(targets.map((t) => t[1]))]];
}

/** The service's filter for one Algolia attribute value. */
function target(name: string, value: string): [string, string] {
  const level = HIERARCHY.exec(name);
  if (level) return ['category', `lvl:${categoryLevelKey(value.split(/\s*>\s*/))}`];
  return [name, value];
}

function numericGroup(group: string[]): [string, FilterValue] {
  if (group.length > 1) throw unsupported('OR between numeric filters is not supported');
  const range = /^\s*([\w.]+)\s*:\s*(-?[\d.]+)\s+TO\s+(-?[\d.]+)\s*$/.exec(group[0]);
  if (range) return [range[1], { gte: num(range[2]), lte: num(range[3]) }];
  const m = /^\s*([\w.]+)\s*(<=|>=|<|>|=|!=)\s*(-?[\d.]+)\s*$/.exec(group[0]);
  if (!m) throw unsupported(`"${group[0]}" is not a numeric filter (attribute >= n, <=, <, >, =, or attribute:a TO b)`);
  return numeric(m[1], m[2], m[3]);
}

/** Strict bounds become inclusive ones nudged by a hair: the engines filter with >= and <=. */
function numeric(name: string, op: string, value: string): [string, FilterValue] {
  const n = num(value);
  switch (op) {
    case '>=':
      return [name, { gte: n }];
    case '<=':
      return [name, { lte: n }];
    case '>':
      return [name, { gte: n + 1e-9 }];
    case '<':
      return [name, { lte: n - 1e-9 }];
    case '=':
      return [name, { gte: n, lte: n }];
    default:
      throw unsupported('!= is not supported');
  }
}

function num(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw unsupported(`"${value}" is not a number`);
  return n;
}

function clauseGroup(group: Clause[]): [string, FilterValue] | null {
  if (group.length === 1 && group[0].kind === 'range') return [group[0].name, { gte: group[0].gte, lte: group[0].lte }];
  if (group.length === 1 && group[0].kind === 'compare') return numeric(group[0].name, group[0].op, String(group[0].value));
  if (group.some((c) => c.kind !== 'term')) throw unsupported('OR is only supported between attribute:value terms');
  return orGroup(group.map((c) => ({ name: c.name, value: (c as { value: string }).value })));
}

/** ANDs one group into the filters: shared values for lists, the tighter bounds for ranges. */
function add(out: Filters, [name, value]: [string, FilterValue]) {
  const prev = out[name];
  if (prev === undefined) {
    out[name] = value;
  } else if (Array.isArray(prev) && Array.isArray(value)) {
    out[name] = prev.filter((v) => value.includes(v));
  } else if (isRange(prev) && isRange(value)) {
    out[name] = { gte: maxOf(prev.gte, value.gte), lte: minOf(prev.lte, value.lte) };
  } else if (typeof prev === 'boolean' && typeof value === 'boolean') {
    out[name] = prev === value ? prev : [];
  } else if (typeof value === 'boolean' && Array.isArray(prev)) {
    out[name] = value;
  } else if (!(typeof prev === 'boolean' && Array.isArray(value))) {
    throw unsupported(`${name} is filtered both as values and as a range`);
  }
}

const isRange = (v: FilterValue): v is { gte?: number | null; lte?: number | null } => typeof v === 'object' && !Array.isArray(v);
const maxOf = (a?: number | null, b?: number | null) => (a == null ? b : b == null ? a : Math.max(a, b));
const minOf = (a?: number | null, b?: number | null) => (a == null ? b : b == null ? a : Math.min(a, b));

export function unsupported(message: string): AppError {
  return new AppError('unsupported_filter', 400, message, [{ in: 'body', field: 'filters', code: 'unsupported_filter', message }]);
}
