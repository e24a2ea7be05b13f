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
