import { z } from 'zod';
import type { FieldError } from '../platform/errors.js';
import { canonicalJson } from '../platform/ids.js';
import { normalizeText } from '../text/normalize.js';

/** Synonym rule fields (spec 2.3) and the checks that decide whether a rule is well formed. */
export const SET_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
export const SetKey = z.string().regex(SET_KEY_PATTERN, 'a set key is 1 to 32 of a-z 0-9 _ - starting with a letter or digit');
export const MAX_TERM_LENGTH = 200;
const Term = z.string().max(MAX_TERM_LENGTH);

export const SynonymConditions = z.strictObject({
  unless_terms: z.array(Term).max(20).optional().describe('skip the expansion when any of these is in the normalized query'),
  require_terms: z.array(Term).max(20).optional().describe('apply the expansion only when all of these are in the normalized query'),
});

/** SynonymIn: `kind` is the only required field; which others apply depends on it. */
export const SynonymIn = z.strictObject({
  kind: z.enum(['equivalent', 'one_way']),
  terms: z.array(Term).max(50).optional().describe('equivalent: at least two different terms, all matching each other'),
  input: Term.nullish().describe('one_way: the word or phrase that also searches the outputs'),
  outputs: z.array(Term).max(50).optional().describe('one_way: what the input also searches'),
  conditions: SynonymConditions.nullish().describe('one_way only'),
  locale: z
    .string()
    .regex(/^[a-z]{2}$/, 'a two-letter lowercase code such as "en"')
    .nullish(),
  set_key: SetKey.optional().describe('named synonym set; default "default"'),
  enabled: z.boolean().optional().describe('default true'),
});
export type SynonymInput = z.output<typeof SynonymIn>;

export type SynonymKind = 'equivalent' | 'one_way';
export type SynonymSource = 'manual' | 'import' | 'suggested' | 'global_copy';
export interface Conditions {
  unless_terms?: string[];
  require_terms?: string[];
}

/** A checked rule as stored: display texts trimmed, defaults applied, and its normalized identity. */
export interface RuleFields {
  kind: SynonymKind;
  terms: string[];
  input: string | null;
  outputs: string[];
  conditions: Conditions | null;
  locale: string | null;
  set_key: string;
  enabled: boolean;
  fingerprint: string;
}

// Normalized text never holds control characters, so these separators cannot be forged by a term.
const TERM_SEP = '\u001f';
const SIDE_SEP = '\u001e';

/**
 * The normalized identity of a rule, used for duplicates: equivalent = its distinct normalized terms
 * in any order; one_way = normalized input plus its distinct normalized outputs in any order.
 * Conditions, locale and enabled are attributes of a rule, not part of its identity.
 */
export function fingerprintOf(kind: SynonymKind, terms: string[], input: string | null, outputs: string[]): string {
  const norm = (xs: string[]) => [...new Set(xs.map((x) => normalizeText(x)).filter(Boolean))].sort().join(TERM_SEP);
  return kind === 'equivalent' ? `eq:${norm(terms)}` : `ow:${normalizeText(input ?? '')}${SIDE_SEP}${norm(outputs)}`;
}

/** Length of the kind prefix (`eq:` or `ow:`); the list's `q` filter matches the normalized texts after it. */
export const FINGERPRINT_PREFIX_LENGTH = 3;

/** Checks a validated SynonymIn and returns the stored fields, or field errors (`field` relative to the rule). */
export function prepareRule(input: SynonymInput, defaultSet = 'default'): { rule?: RuleFields; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const err = (field: string, code: string, message: string) => errors.push({ field, code, message });
  const terms = (input.terms ?? []).map((t) => t.trim());
  const outputs = (input.outputs ?? []).map((t) => t.trim());
  const inputText = input.input?.trim() || null;
  let conditions: Conditions | null = null;
  if (input.kind === 'equivalent') {
    if (inputText) err('input', 'not_allowed', 'input is for one_way rules; an equivalent rule lists its words in terms');
    if (outputs.length) err('outputs', 'not_allowed', 'outputs are for one_way rules; an equivalent rule lists its words in terms');
    if (input.conditions) err('conditions', 'not_allowed', 'conditions apply to one_way rules only');
    const distinct = checkList('terms', terms, errors);
    if (distinct < 2 && !errors.some((e) => e.field.startsWith('terms.'))) {
      err('terms', 'too_short', 'an equivalent rule needs at least two different terms (compared after normalization)');
    }
  } else {
    if (terms.length) err('terms', 'not_allowed', 'terms are for equivalent rules; a one_way rule has input and outputs');
    const normInput = inputText ? normalizeText(inputText) : '';
    if (!inputText) err('input', 'required', 'a one_way rule needs an input');
    else if (LINE_BREAK.test(inputText)) err('input', 'line_break', LINE_BREAK_MESSAGE);
    else if (!normInput) err('input', 'empty_term', 'input has no searchable characters');
    if (!outputs.length) err('outputs', 'required', 'a one_way rule needs at least one output');
    checkList('outputs', outputs, errors, normInput);
    if (input.conditions) {
      const unless = (input.conditions.unless_terms ?? []).map((t) => t.trim());
      const require = (input.conditions.require_terms ?? []).map((t) => t.trim());
      checkList('conditions.unless_terms', unless, errors);
      checkList('conditions.require_terms', require, errors);
      conditions = {};
      if (unless.length) conditions.unless_terms = unless;
      if (require.length) conditions.require_terms = require;
      if (!unless.length && !require.length) conditions = null;
    }
  }
  if (errors.length) return { errors };
  const kind = input.kind;
  return {
    errors,
    rule: {
      kind,
      terms,
      input: kind === 'one_way' ? inputText : null,
      outputs: kind === 'one_way' ? outputs : [],
      conditions,
      locale: input.locale ?? null,
      set_key: input.set_key ?? defaultSet,
      enabled: input.enabled ?? true,
      fingerprint: fingerprintOf(kind, terms, inputText, outputs),
    },
  };
}

/** A line break inside a text: a Solr file (one rule per line) cannot hold it, so an export would not import back. */
const LINE_BREAK = /[\r\n]/;
const LINE_BREAK_MESSAGE = 'a term is one line (a Solr file cannot hold a line break inside a term)';

/** Every text must be one line, keep something after normalization and differ from the others (and from `input`). */
function checkList(field: string, texts: string[], errors: FieldError[], input?: string): number {
  const seen = new Map<string, number>();
  texts.forEach((text, i) => {
    const norm = normalizeText(text);
    if (LINE_BREAK.test(text)) errors.push({ field: `${field}.${i}`, code: 'line_break', message: LINE_BREAK_MESSAGE });
    else if (!norm) errors.push({ field: `${field}.${i}`, code: 'empty_term', message: `"${text}" has no searchable characters` });
    else if (seen.has(norm)) {
      errors.push({ field: `${field}.${i}`, code: 'duplicate_term', message: `"${text}" is the same as ${field}.${seen.get(norm)} after normalization` });
    } else if (input && norm === input) errors.push({ field: `${field}.${i}`, code: 'same_as_input', message: `"${text}" is the input itself` });
    else seen.set(norm, i);
  });
  return seen.size;
}

/** True when a stored rule already holds exactly these fields (an import then skips it). */
export function sameRule(row: Omit<RuleFields, 'fingerprint'>, rule: RuleFields): boolean {
  return (
    row.kind === rule.kind &&
    row.set_key === rule.set_key &&
    row.enabled === rule.enabled &&
    (row.locale ?? null) === rule.locale &&
    (row.input ?? null) === rule.input &&
    canonicalJson(row.terms) === canonicalJson(rule.terms) &&
    canonicalJson(row.outputs) === canonicalJson(rule.outputs) &&
    canonicalJson(row.conditions ?? null) === canonicalJson(rule.conditions)
  );
}

/** The SynonymIn view of a stored rule (what exports write): defaults and empty fields left out. */
export function toSynonymIn(row: Omit<RuleFields, 'fingerprint'>): SynonymInput {
  const out: SynonymInput = { kind: row.kind };
  if (row.kind === 'equivalent') out.terms = row.terms;
  else {
    out.input = row.input;
    out.outputs = row.outputs;
    if (row.conditions) out.conditions = row.conditions;
  }
  if (row.locale) out.locale = row.locale;
  out.set_key = row.set_key;
  if (!row.enabled) out.enabled = false;
  return out;
}
