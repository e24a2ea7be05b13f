import { AppError } from '../platform/errors.js';
import type { FilterValue } from '../engines/lexical/port.js';
import { BUILTIN_FACETS, BUILTIN_FILTERS } from './facets.js';
import type { TenantSearchContext } from './tenant-context.js';

/** 400 unknown_filter for a filter that is neither built in nor a mapped facet attribute. */
export function checkFilters(filters: Record<string, FilterValue>, ctx: TenantSearchContext) {
  const unknown = Object.keys(filters).filter((n) => !BUILTIN_FILTERS.has(n) && !ctx.facetNames.has(n));
  if (unknown.length) {
    throw new AppError(
      'unknown_filter',
      400,
      `unknown filter: ${unknown.join(', ')} (known: ${[...BUILTIN_FILTERS, ...ctx.facetNames].join(', ')})`,
      unknown.map((n) => ({ in: 'query', field: `filter[${n}]`, code: 'unknown_filter', message: 'not a filterable attribute' })),
    );
  }
  const wrong = Object.entries(filters).flatMap(([name, value]) => {
    const problem = filterShapeProblem(name, value);
    return problem ? [{ in: 'query', field: `filter[${name}]`, code: 'invalid_filter', message: problem }] : [];
  });
  if (wrong.length) throw new AppError('validation_failed', 400, `invalid filter: ${wrong[0].field}: ${wrong[0].message}`, wrong);
}

/**
 * What is wrong with a built-in filter's value, if anything: `price` takes a range, `in_stock` true or
 * false, `brand` and `category` values (never a range). A mapped attribute takes values or a range (a
 * range matches the products whose value is a number within it).
 */
export function filterShapeProblem(name: string, value: FilterValue): string | null {
  const range = typeof value === 'object' && !Array.isArray(value);
  if (name === 'price') return range ? null : 'price filters by a range: filter[price][gte]=n and/or filter[price][lte]=n';
  if (name === 'in_stock') {
    const list = typeof value === 'boolean' ? [String(value)] : range ? null : Array.isArray(value) ? value : [value];
    return list && list.length > 0 && list.every((v) => v === 'true' || v === 'false') ? null : 'in_stock is true or false';
  }
  if ((name === 'brand' || name === 'category') && range) return `${name} filters by values (a,b), not by a range`;
  return null;
}

/**
 * The input without an `in_stock` that lists both true and false: a value list keeps the products
 * with any of its values, so either stock keeps them all (the storefront reads `in_stock:true OR
 * in_stock:false` so too). The engines read a list holding 'true' as in stock only. Any other input
 * is returned as it is (one property read).
 */
export function withoutEitherStock<T extends { filters: Record<string, FilterValue> }>(input: T): T {
  const stock = input.filters.in_stock;
  if (!Array.isArray(stock) || !stock.includes('true') || !stock.includes('false') || !stock.every((v) => v === 'true' || v === 'false')) return input;
  const { in_stock: _either, ...filters } = input.filters;
  return { ...input, filters };
}

/**
 * What keeps a stored rule's filter from applying to this store now (merchandising resolveRules
 * filterProblem): a name that is neither built in nor a mapped facet attribute, or a value of the
 * wrong shape for it. Null when it applies.
 */
export function ruleFilterProblem(ctx: Pick<TenantSearchContext, 'facetNames'>): (name: string, value: unknown) => string | null {
  return (name, value) => {
    if (!BUILTIN_FILTERS.has(name) && !ctx.facetNames.has(name)) return `${name} is not a filter of this store`;
    const valueShaped = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || Array.isArray(value) || isRange(value);
    return valueShaped ? filterShapeProblem(name, value as FilterValue) : `${name} has a value of no filter shape`;
  };
}

const isRange = (v: unknown) =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.entries(v).every(([k, n]) => (k === 'gte' || k === 'lte') && (n == null || typeof n === 'number'));

/** The facet names asked for, each once in the order first asked (a repeat was answered twice); the same array when none repeats. */
export function distinctNames(names: string[]): string[] {
  for (let i = 1; i < names.length; i++) if (names.lastIndexOf(names[i], i - 1) !== -1) return [...new Set(names)];
  return names;
}

/** 400 unknown_facet for a facet name that is neither built in nor a mapped facet attribute. */
export function checkFacets(names: string[], ctx: TenantSearchContext) {
  const unknown = names.filter((n) => !(BUILTIN_FACETS as readonly string[]).includes(n) && !ctx.facetNames.has(n));
  if (unknown.length) {
    throw new AppError(
      'unknown_facet',
      400,
      `unknown facet: ${unknown.join(', ')}`,
      unknown.map((n) => ({ in: 'query', field: 'facets', code: 'unknown_facet', message: `${n} is not a facet` })),
    );
  }
}
