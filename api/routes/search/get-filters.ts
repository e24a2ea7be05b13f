import { AppError } from '../../../shared/platform/errors.js';
import type { FilterValue } from '../../../shared/engines/lexical/port.js';

const FILTER_KEY = /^filter\[([^\][]{1,100})\](?:\[(gte|lte)\])?$/;

/** Turns GET `filter[...]` parameters into filters; any other unknown parameter is a 400. */
export function filtersFromQuery(extra: Record<string, unknown>): Record<string, FilterValue> {
  const filters: Record<string, FilterValue> = {};
  for (const [key, raw] of Object.entries(extra)) {
    const m = FILTER_KEY.exec(key);
    if (!m) throw bad(key, 'unknown_field', `unknown query parameter "${key}"`);
    const [, name, bound] = m;
    const value = String(raw);
    if (bound) {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) throw bad(key, 'invalid_type', 'a range bound is a number');
      const range = (filters[name] && typeof filters[name] === 'object' && !Array.isArray(filters[name]) ? filters[name] : {}) as {
        gte?: number;
        lte?: number;
      };
      range[bound as 'gte' | 'lte'] = n;
      filters[name] = range;
    } else if (value === 'true' || value === 'false') {
      filters[name] = value === 'true';
    } else {
      filters[name] = value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    }
  }
  return filters;
}

function bad(field: string, code: string, message: string) {
  return new AppError('validation_failed', 400, `invalid query: ${field}: ${message}`, [{ in: 'query', field, code, message }]);
}
