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

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cache = new WeakMap<GlossaryRule, RegExp>();

/** Whole-token pattern of a term: no letter or digit may touch it on either side. */
export function termPattern(term: string, caseSensitive: boolean): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escape(term)}(?![\\p{L}\\p{N}_])`, caseSensitive ? 'gu' : 'giu');
}

function patternOf(rule: GlossaryRule): RegExp {
  let re = cache.get(rule);
  if (!re) cache.set(rule, (re = termPattern(rule.source_term, rule.case_sensitive)));
  re.lastIndex = 0;
  return re;
}

/**
 * Where glossary terms occur in `text`: whole tokens, case-insensitive unless the term says
 * case_sensitive; longer terms first and case-sensitive before insensitive, never overlapping.
 */
export function findTerms(text: string, rules: readonly GlossaryRule[]): TermSpan[] {
  const ordered = [...rules].sort((a, b) => b.source_term.length - a.source_term.length || Number(b.case_sensitive) - Number(a.case_sensitive));
  const taken: TermSpan[] = [];
  for (const rule of ordered) {
    const re = patternOf(rule);
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const span = { start: m.index, end: m.index + m[0].length, rule };
      if (!taken.some((t) => t.start < span.end && span.start < t.end)) taken.push(span);
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}

/** Whether `term` occurs as a whole token in `text` (the glossary check on a translation). */
export function hasTerm(text: string, term: string, caseSensitive: boolean): boolean {
  return termPattern(term, caseSensitive).test(text);
}
