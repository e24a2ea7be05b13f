import { AppError } from '../../../shared/platform/errors.js';
import { FILTER_VALUE_CHARS, FILTER_VALUES } from './search.schema.js';
import { isDecimalNumber, type FilterValue } from '../../../shared/engines/lexical/port.js';

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
      // Decimal writing only: Number() read `0x10` as 16 and ` 2` as 2.
      if (!isDecimalNumber(value)) throw bad(key, 'invalid_type', 'a range bound is a number in decimal digits');
      const n = Number(value);
      // Own properties only: filter[__proto__][gte]=7 read Object.prototype as the range and set its gte, in every object of the process.
      const prev = Object.prototype.hasOwnProperty.call(filters, name) ? filters[name] : undefined;
      const range = (prev && typeof prev === 'object' && !Array.isArray(prev) ? prev : {}) as { gte?: number; lte?: number };
      range[bound as 'gte' | 'lte'] = n;
      put(filters, name, range);
    } else if (value === 'true' || value === 'false') {
      put(filters, name, value === 'true');
    } else {
      const values = value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      // The limits of POST's lists (search.schema.ts FilterValueIn).
      if (values.length > FILTER_VALUES) throw bad(key, 'too_long', `at most ${FILTER_VALUES} values`);
      if (values.some(tooLong)) throw bad(key, 'too_long', `a value is at most ${FILTER_VALUE_CHARS} characters`);
      put(filters, name, values);
    }
  }
  return filters;
}

/**
 * A POST's filters with the body's own `__proto__` filter put back: z.record skips that key (an
 * assignment would set the prototype), so `"filters": {"__proto__": ...}` searched as if unfiltered.
 * Put as an own property, the search refuses it as an unknown filter, as it does `filter[__proto__]`.
 * Its value is checked as any filter's (`check`); the parsed filters come back as they are otherwise.
 */
export function withOwnProto(
  parsed: Record<string, FilterValue> | undefined,
  raw: unknown,
  check: (value: unknown) => FilterValue,
): Record<string, FilterValue> | undefined {
  const sent = raw && typeof raw === 'object' ? (raw as { filters?: unknown }).filters : undefined;
  if (!sent || typeof sent !== 'object' || !Object.prototype.hasOwnProperty.call(sent, '__proto__')) return parsed;
  const filters = { ...parsed };
  put(filters, '__proto__', check((sent as Record<string, unknown>)['__proto__']));
  return filters;
}

/** Longer than FILTER_VALUE_CHARS characters, counted as code points as every length limit is (UTF-16 units only bound them). */
const tooLong = (v: string) => v.length > FILTER_VALUE_CHARS && [...v].length > FILTER_VALUE_CHARS;

/** A plain own property, `__proto__` too (an unknown filter then, not the object's prototype). */
function put(filters: Record<string, FilterValue>, name: string, value: FilterValue) {
  if (name === '__proto__') Object.defineProperty(filters, name, { value, writable: true, enumerable: true, configurable: true });
  else filters[name] = value;
}

function bad(field: string, code: string, message: string) {
  return new AppError('validation_failed', 400, `invalid query: ${field}: ${message}`, [{ in: 'query', field, code, message }]);
}
