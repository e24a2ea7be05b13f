import type { QueryTerm } from '../engines/lexical/port.js';
import { isCodeLike } from '../text/normalize.js';
import { stem } from '../text/stem.js';
import { isIntentWord } from '../text/intent-words.js';
import { gluedMeasure, isMeasurePair } from '../text/measure.js';
import type { Segment } from './synonym-matcher.js';
import { MAX_ALTERNATIVES } from './query-bounds.js';

export interface PlanInput {
  tokens: string[];
  /** Synonym segments over `tokens` (from SynonymMatcher); tokens they cover are not corrected or joined. */
  segments?: Segment[];
  terms: Map<string, number>;
  typoTolerance: boolean;
  /** The vocabulary's correction of an unknown token, or null (see TypoIndex). */
  correct(token: string): string | null;
  /** The store's more frequent hyphenated writing of a word ("tshirts" -> "t-shirts"), or null (Vocabulary.hyphenated). */
  hyphenated?(token: string): string | null;
  /** The store's other writing of a catalog word ("duffle" -> "duffel"), or null (Vocabulary.variant). */
  variant?(token: string): string | null;
}

export interface QueryPlan {
  terms: QueryTerm[];
  corrections: Array<{ from: string; to: string }>;
  compounds: string[];
  /** Catalog words that also match the store's other writing of them (PlanInput.variant). */
  variants: Array<{ from: string; to: string }>;
  /** Intent words the catalog does not know ("cheap"): left out of the match, never corrected. */
  intents: string[];
}

const known = (terms: Map<string, number>, t: string) => terms.has(t) || terms.has(stem(t));

/**
 * Turns tokens into engine terms: adjacent words that the catalog writes as one word match
 * that word too ("smart watch" -> smartwatch, a measure "16 gb" -> 16gb), an unknown word that the
 * catalog writes as two matches both ("headset" <- "head set"), a glued measure its words apart
 * ("16gb" -> "16 gb"), and unknown words get their typo correction as an alternative. Codes and
 * numbers are matched exactly, never corrected. Intent words
 * (shared/text/intent-words.ts: cheap, best, new, for men...) are never corrected or split: one the
 * catalog knows is matched as typed, one it does not is left out of the match (unless it is the
 * only word), so "cheap dress" searches dresses, not "chap" lip balm.
 */
export function planQuery(input: PlanInput): QueryPlan {
  const { tokens, terms } = input;
  const compounds: string[] = [];
  const out: QueryTerm[] = [];
  const corrections: QueryPlan['corrections'] = [];
  const intents: string[] = [];
  const variants: QueryPlan['variants'] = [];
  // Tokens a synonym rule covers become one term: the shopper's words or any expansion, taken exactly.
  const covered = new Map<number, Segment>();
  let at = 0;
  for (const seg of input.segments ?? []) {
    if (seg.expansions.length) covered.set(at, seg);
    at += seg.tokens.length;
  }
  for (let i = 0; i < tokens.length; i++) {
    const seg = covered.get(i);
    if (seg) {
      out.push({ alternatives: [seg.tokens, ...seg.expansions].slice(0, MAX_ALTERNATIVES) });
      i += seg.tokens.length - 1;
      continue;
    }
    const t = tokens[i];
    const next = covered.has(i + 1) ? undefined : tokens[i + 1];
    if (next && terms.has(t + next) && ((!isCodeLike(t) && !isCodeLike(next)) || isMeasurePair(t, next))) {
      compounds.push(t + next);
      out.push({ alternatives: [[t, next], [t + next]], phrase: true });
      i++;
      continue;
    }
    if (isCodeLike(t)) {
      // "16gb" where the store also writes "16 GB": the measure's words apart, as a phrase.
      const apart = gluedMeasure(t);
      out.push(apart && terms.has(apart[1]) ? { alternatives: [[t], apart], exact: true, phrase: true } : { alternatives: [[t]], exact: true });
      continue;
    }
    const term: QueryTerm = { alternatives: [[t]] };
    // "tshirts" where the store writes "T-Shirts": the hyphenated word (a phrase of its parts in the index) matches too.
    const hyphenated = input.hyphenated?.(t);
    if (hyphenated) term.alternatives.push([hyphenated]);
    if (isIntentWord(t) && !known(terms, t)) {
      if (tokens.some((o) => o !== t && !isIntentWord(o))) intents.push(t);
      else out.push(term);
      continue;
    }
    const owner = possessive(t, terms);
    if (owner) {
      term.alternatives.push(owner);
      term.phrase = true;
    }
    // "duffle bag" where the store also writes "duffel bag": both writings match.
    const variant = terms.has(t) ? input.variant?.(t) : null;
    if (variant && variant !== hyphenated) {
      term.alternatives.push([variant]);
      variants.push({ from: t, to: variant });
    }
    if (!known(terms, t)) {
      const split = splitKnown(t, terms);
      if (split) {
        term.alternatives.push(split);
        term.phrase = true;
        compounds.push(split.join(' '));
      }
      // Both readings when a word both splits and has a correction: "blutooth" is "blu tooth" by
      // its letters and "bluetooth" by a typo; the catalog decides which matches.
      if (input.typoTolerance) {
        const to = input.correct(t);
        if (to) {
          term.alternatives.push([to]);
          corrections.push({ from: t, to });
        }
      }
    }
    out.push(term);
  }
  return { terms: out, corrections, compounds, variants, intents };
}

/**
 * A word typed without its apostrophe ("levis") also matches the possessive a title
 * writes ("Levi's": the tokens levi, s), as a phrase, when its stem does not already reach it.
 * English spelling, no word list: only when the word without its "s" is a catalog word.
 */
export function possessive(token: string, terms: Map<string, number>): string[] | null {
  if (token.length < 4 || !/^\p{L}+s$/u.test(token)) return null;
  const owner = token.slice(0, -1);
  // "womens" already meets "women's" by its stem (women): only a word the plural rule keeps whole needs the phrase.
  return terms.has(owner) && stem(token) !== owner ? [owner, 's'] : null;
}

/** "headset" -> ['head', 'set'] when both halves are catalog words and the whole is not. */
function splitKnown(token: string, terms: Map<string, number>): string[] | null {
  if (token.length < 6) return null;
  for (let i = 3; i <= token.length - 3; i++) {
    const a = token.slice(0, i);
    const b = token.slice(i);
    if (terms.has(a) && terms.has(b)) return [a, b];
  }
  return null;
}
