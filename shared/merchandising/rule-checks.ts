import type { FieldError } from '../platform/errors.js';
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

/** Every filter name a rule uses (context, boosts, buries, filters to add), with the field that names it. */
export function ruleFilterNames(r: RuleFields, at = ''): Array<{ name: string; field: string }> {
  const out: Array<{ name: string; field: string }> = [];
  for (const name of Object.keys(r.conditions.filters ?? {})) out.push({ name, field: `${at}conditions.filters.${name}` });
  for (const kind of ['boosts', 'buries'] as const) {
    r.consequences[kind].forEach((b, i) =>
      Object.keys(b.filters).forEach((name) => out.push({ name, field: `${at}consequences.${kind}.${i}.filters.${name}` })),
    );
  }
  for (const name of Object.keys(r.consequences.add_filters ?? {})) out.push({ name, field: `${at}consequences.add_filters.${name}` });
  return out;
}
