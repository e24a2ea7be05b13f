// Regex building blocks shared by the rules. Everything here runs once at module
// load; parseRules itself only executes the compiled patterns.

import { normalizeText } from '../../text/normalize.js';

/**
 * Placeholders left where an understood part was cut out of the query. Normalized text never
 * contains control characters (normalizeText turns them into spaces), so these cannot clash.
 */
export const MARK = { price: '\u0001', sort: '\u0002', brand: '\u0003', color: '\u0004' } as const;
export const MARK_RE = /[\u0001-\u0004]/;

/** Not preceded / followed by a letter or digit: whole words only, for any script. */
export const B = '(?<![\\p{L}\\p{N}\\p{M}])';
export const E = '(?![\\p{L}\\p{N}\\p{M}])';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One alternation from a phrase list: every phrase is normalized like queries are (so Arabic
 * lists can be written with hamzas, alef maksura and teh marbuta), escaped, with any run of
 * spaces inside a phrase matching any whitespace, longest first so "less than" beats "less".
 */
export function phrases(list: readonly string[]): string {
  const forms = new Set(list.map((p) => normalizeText(p)).filter((p) => p.length > 0));
  return [...forms]
    .sort((a, b) => b.length - a.length)
    .map((p) => p.split(' ').map(escape).join('\\s+'))
    .join('|');
}

/** Collapses whitespace so a matched phrase can be looked up in a table of normalized phrases. */
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
