import type { FieldError } from '../platform/errors.js';
import { Timestamp } from '../platform/schemas.js';
import type { FilterValue } from '../engines/lexical/port.js';
import { normalizeText, tokenize } from '../text/normalize.js';
import type { RuleFields } from './rule.schema.js';

/** What the schema cannot check alone: window order, something to do, unique pins, banners with content, patterns with words. */
export function ruleProblems(r: RuleFields, at = ''): FieldError[] {
  const out: FieldError[] = [];
  const add = (field: string, code: string, message: string) => out.push({ in: 'body', field: `${at}${field}`, code, message });
  const { conditions: c, consequences: k } = r;
  if (c.active_from && c.active_until && Date.parse(c.active_from) >= Date.parse(c.active_until)) {
    add('conditions.active_until', 'invalid_window', 'active_until must be after active_from');
  }
  c.patterns.forEach((p, i) => {
    if (!tokenize(normalizeText(p.text)).length) add(`conditions.patterns.${i}.text`, 'no_words', 'the pattern has no letters or digits');
  });
  const acts = [k.redirect, k.banners.length, k.pins.length, k.hides.length, k.boosts.length, k.buries.length, Object.keys(k.add_filters ?? {}).length];
  if (!acts.some(Boolean)) add('consequences', 'empty', 'a rule needs at least one consequence');
  const positions = new Set<number>();
  const products = new Set<string>();
  k.pins.forEach((p, i) => {
    if (positions.has(p.position)) add(`consequences.pins.${i}.position`, 'duplicate', `position ${p.position} is pinned twice`);
    if (products.has(p.product_id)) add(`consequences.pins.${i}.product_id`, 'duplicate', `${p.product_id} is pinned twice`);
    positions.add(p.position);
    products.add(p.product_id);
  });
  k.banners.forEach((b, i) => {
    if (!b.html && !b.image_url) add(`consequences.banners.${i}`, 'empty', 'a banner needs html or image_url');
  });
  for (const kind of ['boosts', 'buries'] as const) {
    k[kind].forEach((b, i) => {
      if (!Object.keys(b.filters).length) add(`consequences.${kind}.${i}.filters`, 'empty', 'name at least one filter');
    });
  }
  return out;
}

/** Every filter a rule uses (context, boosts, buries, filters to add), with the field that names it. */
export function ruleFilters(r: RuleFields, at = ''): Array<{ name: string; value: FilterValue; field: string }> {
  const out: Array<{ name: string; value: FilterValue; field: string }> = [];
  for (const [name, value] of Object.entries(r.conditions.filters ?? {})) out.push({ name, value, field: `${at}conditions.filters.${name}` });
  for (const kind of ['boosts', 'buries'] as const) {
    r.consequences[kind].forEach((b, i) =>
      Object.entries(b.filters).forEach(([name, value]) => out.push({ name, value, field: `${at}consequences.${kind}.${i}.filters.${name}` })),
    );
  }
  for (const [name, value] of Object.entries(r.consequences.add_filters ?? {})) out.push({ name, value, field: `${at}consequences.add_filters.${name}` });
  return out;
}

/**
 * The filter names `__proto__` of a rule as it was sent: z.record skips that own key of the parsed
 * JSON (an assignment would set the prototype), so a filter context of `{"__proto__": [...]}` was
 * stored as none and the rule met every search. Each is an unknown filter, as in a search.
 */
export function protoFilterProblems(sent: unknown, at = ''): FieldError[] {
  const out: FieldError[] = [];
  const own = (v: unknown, k: string): unknown => (v && typeof v === 'object' && Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined);
  const check = (map: unknown, field: string) => {
    if (map && typeof map === 'object' && !Array.isArray(map) && Object.hasOwn(map, '__proto__')) {
      out.push({ in: 'body', field: `${at}${field}.__proto__`, code: 'unknown_filter', message: '__proto__ is not a filter of this store' });
    }
  };
  const c = own(sent, 'conditions');
  const k = own(sent, 'consequences');
  check(own(c, 'filters'), 'conditions.filters');
  for (const kind of ['boosts', 'buries'] as const) {
    const list = own(k, kind);
    if (Array.isArray(list)) list.forEach((b, i) => check(own(b, 'filters'), `consequences.${kind}.${i}.filters`));
  }
  check(own(k, 'add_filters'), 'consequences.add_filters');
  return out;
}

const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * What is wrong with an imported `created_at`, if anything. Postgres stores years 0001-9999 as
 * written here (it refuses year 0 and JavaScript's extended "+275760-..." or "-000001-..." form),
 * so the instant must be in those years in UTC; the time is then stored as its UTC ISO string.
 */
export function createdAtProblem(value: string): { code: string; message: string } | null {
  if (!Timestamp.safeParse(value).success) return { code: 'invalid_format', message: 'an ISO 8601 date-time with an offset, e.g. 2024-01-31T12:00:00Z' };
  const at = Date.parse(value);
  if (!(at >= FIRST_INSTANT && at <= LAST_INSTANT)) return { code: 'out_of_range', message: 'must be in the years 0001 to 9999 (UTC)' };
  return null;
}
