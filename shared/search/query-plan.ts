import type { QueryTerm } from '../engines/lexical/port.js';
import { isCodeLike } from '../text/normalize.js';
import { stem, withoutArticle } from '../text/stem.js';
import { isIntentWord } from '../text/intent-words.js';
import { equivalentMeasures, gluedMeasure, isMeasurePair } from '../text/measure.js';
import { isUnitName } from '../text/product-head.js';
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
  /** The last-resort correction from the store's description-only words, for a token `correct` leaves alone, or null (Vocabulary.descriptionCorrection). */
  correctFromDescriptions?(token: string): string | null;
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
    // A measure is one term, its words a phrase ("1 litre" is not any "1" and any "litre": a "1 Containers
    // Lunch Box"), in every writing the store has: glued, and in the other units of its quantity.
    if (next && isMeasurePair(t, next)) {
      const writings = measureWritings(t, next, terms);
      compounds.push(...writings.filter((w) => w.length === 1).map((w) => w[0]));
      out.push({ alternatives: [[t, next], ...writings].slice(0, MAX_ALTERNATIVES), phrase: true });
      i++;
      continue;
    }
    const joined = next ? joinedWriting(t, next, terms) : null;
    if (next && joined) {
      compounds.push(joined);
      out.push({ alternatives: [[t, next], [joined]], phrase: true });
      i++;
      continue;
    }
    if (isCodeLike(t)) {
      out.push(codeTerm(t, input));
      continue;
    }
    const term: QueryTerm = { alternatives: [[t]] };
    // "tshirts" where the store writes "T-Shirts": the hyphenated word (a phrase of its parts in the index) matches too.
    const hyphenated = input.hyphenated?.(t);
    if (hyphenated) term.alternatives.push([hyphenated]);
    // ... and so does that of its stem: the store's "T-Shirt" for "tshirts" (a hyphenated word's plural has no stem of its own).
    const singular = stem(t) !== t ? input.hyphenated?.(stem(t)) : null;
    if (singular && singular !== hyphenated) term.alternatives.push([singular]);
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
      // its letters and "bluetooth" by a typo; the catalog decides which matches. A word the store
      // writes with hyphens is no typo ("tshirt" is "t-shirt", not "shirt"), nor is a unit name the
      // store does not use ("1 litre" is a measure, not "1 lite").
      if (input.typoTolerance && !hyphenated && !singular && !isUnitName(t)) {
        // The store's description words only when nothing else reads the word: no correction, no split.
        const to = input.correct(t) ?? bareCorrection(t, input) ?? (split ? null : describedCorrection(t, input));
        if (to) {
          term.alternatives.push([to]);
          corrections.push({ from: t, to });
          // The correction is planned as the word typed right would be: the store's hyphenated writing and its other spelling too.
          const toHyphenated = input.hyphenated?.(to);
          if (toHyphenated) term.alternatives.push([toHyphenated]);
          const toVariant = terms.has(to) ? input.variant?.(to) : null;
          if (toVariant && toVariant !== toHyphenated) {
            term.alternatives.push([toVariant]);
            variants.push({ from: to, to: toVariant });
          }
        }
      }
    }
    out.push(term);
  }
  return { terms: out, corrections, compounds, variants, intents };
}

/**
 * The store's one-word writing of two adjacent words (measures aside: measureWritings), or null:
 * joined for words ("smart watch": smartwatch), hyphenated for a code ("tn 2110": tn-2110, whose
 * digits the index keeps only with the hyphen). Two words of letters stay two words when the store
 * hyphenates them ("usb stick" also finds "USB flash drive ... stick"; "usb-stick" has both).
 */
function joinedWriting(t: string, next: string, terms: Map<string, number>): string | null {
  const code = isCodeLike(t) || isCodeLike(next);
  if (terms.has(t + next) && !code) return t + next;
  return code && terms.has(`${t}-${next}`) ? `${t}-${next}` : null;
}

/**
 * The store's other writings of a measure typed apart: glued ("16 gb": 16gb) and in the other units
 * of its quantity ("1 litre": 1000 ml, 1l), each only when the store writes that unit. The glued
 * writings first: the term is as rare as the first (Vocabulary.termWeight).
 */
function measureWritings(number: string, unit: string, terms: Map<string, number>): string[][] {
  const glued: string[][] = [];
  const apart: string[][] = [];
  for (const [n, u] of [[number, unit], ...equivalentMeasures(number, unit)]) {
    if (terms.has(n + u)) glued.push([n + u]);
    if ((n !== number || u !== unit) && terms.has(u)) apart.push([n, u]);
  }
  return [...glued, ...apart];
}

/**
 * A code or number, matched exactly, and the store's other writings of it: a measure's words apart
 * and its other units ("16gb": "16 GB"; "500ml": "0.5 l"), a model code's hyphens ("tn2110":
 * "TN-2110", "smg980f": "SM-G980F") or its letters and digits apart ("rtx2060": "RTX 2060"), each
 * when the store's words make it.
 */
function codeTerm(t: string, input: PlanInput): QueryTerm {
  const { terms } = input;
  const measure = gluedMeasure(t);
  if (measure) {
    const [n, u] = measure;
    const writings = [...(terms.has(u) ? [measure] : []), ...measureWritings(n, u, terms).filter((w) => w.length > 1 || w[0] !== t)];
    return writings.length ? { alternatives: [[t], ...writings].slice(0, MAX_ALTERNATIVES), exact: true, phrase: true } : { alternatives: [[t]], exact: true };
  }
  const term: QueryTerm = { alternatives: [[t]], exact: true };
  const hyphenated = input.hyphenated?.(t);
  if (hyphenated) term.alternatives.push([hyphenated]);
  const parts = CODE_PARTS.exec(t);
  const [a, b] = parts ? [parts[1] ?? parts[3], parts[2] ?? parts[4]] : [];
  if (a && b && knownPart(a, terms) && knownPart(b, terms) && !terms.has(`${a}-${b}`)) {
    term.alternatives.push([a, b]);
    term.phrase = true;
  }
  return term;
}
/** A part of a code the store writes: a catalog word, or a lone digit (too short for the vocabulary to count: "iphone5" is "iPhone 5"). */
const knownPart = (part: string, terms: Map<string, number>): boolean => terms.has(part) || /^\d$/.test(part);
/** A code of letters then digits or digits then letters, two letters at least ("rtx2060", "iphone5", "2060rtx"). */
const CODE_PARTS = /^(?:(\p{L}{2,})(\d+)|(\d+)(\p{L}{2,}))$/u;

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

/**
 * An unknown word typed with the Arabic article is corrected as the bare word ("القميض": قميص), since the catalog's
 * vocabulary holds its words as the names write them, mostly without the article; the correction is the bare word.
 */
function bareCorrection(token: string, input: PlanInput): string | null {
  const bare = withoutArticle(token);
  return bare ? input.correct(bare) : null;
}

/** The correction of an unknown word from the store's description-only words, as typed, else without the Arabic article. */
function describedCorrection(token: string, input: PlanInput): string | null {
  if (!input.correctFromDescriptions) return null;
  const bare = withoutArticle(token);
  return input.correctFromDescriptions(token) ?? (bare ? input.correctFromDescriptions(bare) : null);
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
