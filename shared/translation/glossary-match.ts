/** A glossary term as matching needs it. */
export interface GlossaryRule {
  source_term: string;
  target_term: string | null;
  do_not_translate: boolean;
  case_sensitive: boolean;
}

export interface TermSpan {
  start: number;
  end: number;
  rule: GlossaryRule;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole-token pattern of a term (the slow path: lower-casing changed the text's length). */
function termPattern(term: string, caseSensitive: boolean): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escape(term)}(?![\\p{L}\\p{N}_])`, caseSensitive ? 'gu' : 'giu');
}

/**
 * Where `term` occurs in `text` as a whole token (no letter, digit or underscore touching it),
 * case-insensitively unless `caseSensitive`. A plain search rather than a regular expression per
 * term: compiling a Unicode-aware pattern for every product's brand and model cost about 1 ms each.
 */
export function occurrences(text: string, term: string, caseSensitive: boolean): Array<[number, number]> {
  if (!term) return [];
  const hay = caseSensitive ? text : text.toLowerCase();
  const needle = caseSensitive ? term : term.toLowerCase();
  if (hay.length !== text.length || needle.length !== term.length) {
    return [...text.matchAll(termPattern(term, caseSensitive))].map((m) => [m.index!, m.index! + m[0].length]);
  }
  const out: Array<[number, number]> = [];
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if ((at > 0 && WORD_CHAR.test(text[at - 1])) || (end < text.length && WORD_CHAR.test(text[end]))) continue;
    out.push([at, end]);
    at = end - 1;
  }
  return out;
}

/**
 * Where glossary terms occur in `text`: whole tokens, case-insensitive unless the term says
 * case_sensitive; longer terms first and case-sensitive before insensitive, never overlapping.
 */
export function findTerms(text: string, rules: readonly GlossaryRule[]): TermSpan[] {
  const ordered = [...rules].sort((a, b) => b.source_term.length - a.source_term.length || Number(b.case_sensitive) - Number(a.case_sensitive));
  const taken: TermSpan[] = [];
  for (const rule of ordered) {
    for (const [start, end] of occurrences(text, rule.source_term, rule.case_sensitive)) {
      if (!taken.some((t) => t.start < end && start < t.end)) taken.push({ start, end, rule });
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}

/** Whether `term` occurs as a whole token in `text` (the glossary check on a translation). */
export function hasTerm(text: string, term: string, caseSensitive: boolean): boolean {
  return occurrences(text, term, caseSensitive).length > 0;
}

/** `text` with every whole-token occurrence of `term` (any case) replaced by a space. */
export function blankTerm(text: string, term: string): string {
  let out = '';
  let at = 0;
  for (const [start, end] of occurrences(text, term, false)) {
    out += `${text.slice(at, start)} `;
    at = end;
  }
  return out + text.slice(at);
}
