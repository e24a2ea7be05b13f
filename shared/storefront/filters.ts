import { AppError } from '../platform/errors.js';
import { categoryLevelKey, type FilterValue } from '../engines/lexical/port.js';
import type { AlgoliaParams } from './params.js';
import { parseFilterString, type Clause } from './filter-string.js';
import { bothLevels, type Leaves } from './category-levels.js';

type Filters = Record<string, FilterValue>;
/** The parameter a filter came from: errors name it (`requests.<i>.<param>`). */
export type FilterParam = 'facetFilters' | 'numericFilters' | 'filters';

/** `categories.lvl0`, `categories.lvl1`, ...: the category tree as InstantSearch's hierarchicalMenu reads it (separator `>`). */
export const HIERARCHY = /^categories\.lvl([0-9])$/;

export interface FilterOptions {
  /** Where the request's parameters are reported: `requests.<i>`. */
  field: string;
  /** The level key of a label path in any of the store's languages (default: the path's labels normalized, as English keys are). */
  levelKey?: (labels: string[]) => string;
  /** By leaf category id: the level keys every product of the leaf is in (its path and the path's parents; leaf-levels.ts). */
  leafLevels?: Map<string, Set<string>>;
}

export interface ProtocolFilters {
  filters: Filters;
  /** The parameter each filtered attribute came from (its first), for errors about it. */
  from: Record<string, FilterParam>;
  /** Leaf ids ANDed with a level that `leafLevels` did not have: given their levels, a second call answers (else they matched nothing). */
  leaves: string[];
}

/** A group no product passes (in_stock:yes, in_stock:true AND in_stock:false). */
const NOTHING = Symbol('nothing');
type GroupValue = FilterValue | typeof NOTHING;
type Group = [string, GroupValue, FilterParam];

/**
 * facetFilters, numericFilters and filters into the service's filters, all ANDed. Inside a group
 * (an inner array, or `(a OR b)`) values of ONE attribute are ORed; several groups on one
 * attribute keep the values they share (exact for single-valued attributes such as brand);
 * category levels keep the deeper of related levels (fashion AND fashion>women: fashion>women).
 * A filter no product can pass (an in_stock value other than true and false, disjoint groups)
 * matches nothing, as Algolia answers it (an empty list of values: 0 hits). Negation, OR across
 * attributes and `!=` are refused with 400 `unsupported_filter`.
 */
export function toFilters(p: AlgoliaParams, opts: FilterOptions = { field: 'requests.0' }): ProtocolFilters {
  // No prototype: an attribute named `__proto__` is a key like any other (an unknown attribute, refused below), never the object's prototype.
  const out: Filters = Object.create(null);
  const from: Record<string, FilterParam> = Object.create(null);
  const groups: Array<Group | null> = [
    ...asGroups(p.facetFilters).map((g) => facetGroup(g, opts)),
    ...asGroups(p.numericFilters).map((g) => numericGroup(g, opts.field)),
    ...(p.filters?.trim() ? parseFilterString(p.filters, `${opts.field}.filters`).map((g) => clauseGroup(g, opts)) : []),
  ];
  let nothing = false;
  const leaves = new Set<string>();
  for (const g of groups) {
    if (!g) continue;
    from[g[0]] ??= g[2];
    if (g[1] === NOTHING || !add(out, [g[0], g[1]], `${opts.field}.${g[2]}`, { levels: opts.leafLevels, leaves })) nothing = true;
  }
  // An empty list matches nothing (the engines' and /v1's reading); category takes one whatever the store maps.
  if (nothing) {
    delete out.in_stock;
    out.category = [];
    from.category ??= 'facetFilters';
  }
  return { filters: out, from, leaves: [...leaves] };
}

function asGroups(value: AlgoliaParams['facetFilters']): string[][] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [[value]];
  return value.map((item) => (typeof item === 'string' ? [item] : item)).filter((g) => g.length > 0);
}

/** `brand:Apple`; `\-` escapes a leading minus, a bare leading minus is negation (unsupported). */
function facetGroup(group: string[], opts: FilterOptions): Group | null {
  const field = `${opts.field}.facetFilters`;
  const parsed = group.map((f) => {
    const i = f.indexOf(':');
    if (i <= 0) throw unsupported(field, `"${f}" is not attribute:value`);
    let value = f.slice(i + 1);
    if (value.startsWith('-')) throw unsupported(field, `negation ("${f}") is not supported`);
    if (value.startsWith('\\-')) value = value.slice(1);
    return { name: f.slice(0, i).trim(), value };
  });
  return orGroup(parsed, 'facetFilters', opts);
}

/** null: the group filters nothing out (in_stock true OR false). */
function orGroup(parsed: Array<{ name: string; value: string }>, param: FilterParam, opts: FilterOptions): Group | null {
  const field = `${opts.field}.${param}`;
  const targets = parsed.map(({ name, value }) => target(name, value, opts));
  const names = new Set(targets.map((t) => t[0]));
  if (names.size > 1) throw unsupported(field, `OR across attributes (${[...names].join(', ')}) is not supported`);
  const [name] = targets[0];
  if (name === 'price') throw invalidFilter(field, 'price is numeric: filter it with numericFilters (price>=10, price:10 TO 100) or filters (price < 100)');
  if (name === 'in_stock') {
    // Its facet values are "true" and "false": another value is one no product has.
    const values = new Set(targets.map((t) => t[1]).filter((v) => v === 'true' || v === 'false'));
    if (values.size > 1) return null;
    return [name, values.size === 0 ? NOTHING : values.has('true'), param];
  }
  return [name, [...new Set(targets.map((t) => t[1]))], param];
}

/** The service's filter for one Algolia attribute value. */
function target(name: string, value: string, opts: FilterOptions): [string, string] {
  const level = HIERARCHY.exec(name);
  if (level) {
    const labels = value.split(/\s*>\s*/);
    return ['category', `lvl:${opts.levelKey ? opts.levelKey(labels) : categoryLevelKey(labels)}`];
  }
  return [name, value];
}

function numericGroup(group: string[], at: string): Group | null {
  const field = `${at}.numericFilters`;
  if (group.length > 1) throw unsupported(field, 'OR between numeric filters is not supported');
  const range = /^\s*([\w.]+)\s*:\s*(-?[\d.]+)\s+TO\s+(-?[\d.]+)\s*$/.exec(group[0]);
  if (range) return numericTarget(range[1], { gte: num(range[2], field), lte: num(range[3], field) }, 'numericFilters', field);
  const m = /^\s*([\w.]+)\s*(<=|>=|<|>|=|!=)\s*(-?[\d.]+)\s*$/.exec(group[0]);
  if (!m) throw unsupported(field, `"${group[0]}" is not a numeric filter (attribute >= n, <=, <, >, =, or attribute:a TO b)`);
  return numericTarget(m[1], numeric(m[2], num(m[3], field), field), 'numericFilters', field);
}

/** Strict bounds become inclusive ones nudged by a hair: the engines filter with >= and <=. */
function numeric(op: string, n: number, field: string): { gte?: number; lte?: number } {
  switch (op) {
    case '>=':
      return { gte: n };
    case '<=':
      return { lte: n };
    case '>':
      return { gte: n + 1e-9 };
    case '<':
      return { lte: n - 1e-9 };
    case '=':
      return { gte: n, lte: n };
    default:
      throw unsupported(field, '!= is not supported');
  }
}

/** A numeric condition on an attribute: in_stock as Algolia's booleans (1 true, 0 false); brand and category have no numbers. */
function numericTarget(name: string, range: { gte?: number; lte?: number }, param: FilterParam, field: string): Group | null {
  if (name === 'in_stock') {
    const holds = (n: number) => (range.gte ?? -Infinity) <= n && n <= (range.lte ?? Infinity);
    return holds(1) && holds(0) ? null : [name, holds(1) ? true : holds(0) ? false : NOTHING, param];
  }
  if (name === 'brand' || HIERARCHY.test(name) || name === 'category')
    throw invalidFilter(field, `${name} has no numbers: filter it with facetFilters (${name}:value)`);
  return [name, range, param];
}

function num(value: string, field: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw unsupported(field, `"${value}" is not a number`);
  return n;
}

function clauseGroup(group: Clause[], opts: FilterOptions): Group | null {
  const field = `${opts.field}.filters`;
  if (group.length === 1 && group[0].kind === 'range') return numericTarget(group[0].name, { gte: group[0].gte, lte: group[0].lte }, 'filters', field);
  if (group.length === 1 && group[0].kind === 'compare') return numericTarget(group[0].name, numeric(group[0].op, group[0].value, field), 'filters', field);
  if (group.some((c) => c.kind !== 'term')) throw unsupported(field, 'OR is only supported between attribute:value terms');
  return orGroup(
    group.map((c) => ({ name: c.name, value: (c as { value: string }).value })),
    'filters',
    opts,
  );
}

/** ANDs one group into the filters: shared values for lists, the tighter bounds for ranges; false when no product passes both. */
function add(out: Filters, [name, value]: [string, FilterValue], field: string, leaves: Leaves): boolean {
  const prev = out[name];
  if (prev === undefined) {
    out[name] = value;
  } else if (Array.isArray(prev) && Array.isArray(value)) {
    out[name] = name === 'category' ? bothLevels(prev, value, leaves) : prev.filter((v) => value.includes(v));
  } else if (isRange(prev) && isRange(value)) {
    out[name] = { gte: maxOf(prev.gte, value.gte), lte: minOf(prev.lte, value.lte) };
  } else if (typeof prev === 'boolean' && typeof value === 'boolean') {
    return prev === value;
  } else {
    throw unsupported(field, `${name} is filtered both as values and as a range`);
  }
  return true;
}

const isRange = (v: FilterValue): v is { gte?: number | null; lte?: number | null } => typeof v === 'object' && !Array.isArray(v);
const maxOf = (a?: number | null, b?: number | null) => (a == null ? b : b == null ? a : Math.max(a, b));
const minOf = (a?: number | null, b?: number | null) => (a == null ? b : b == null ? a : Math.min(a, b));

/** 400 unsupported_filter, reported at the parameter (`requests.<i>.facetFilters`). */
export function unsupported(field: string, message: string): AppError {
  return new AppError('unsupported_filter', 400, `${field}: ${message}`, [{ in: 'body', field, code: 'unsupported_filter', message }]);
}

function invalidFilter(field: string, message: string): AppError {
  return new AppError('validation_failed', 400, `invalid filter: ${field}: ${message}`, [{ in: 'body', field, code: 'invalid_filter', message }]);
}
