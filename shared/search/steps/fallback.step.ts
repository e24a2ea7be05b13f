import type { EngineQuery, EngineResult, QueryTerm } from '../../engines/lexical/port.js';
import type { Vocabulary } from '../vocabulary.js';
import type { SearchState, SearchStep, StepEnv } from './state.js';
import { MAX_FALLBACK_TERMS } from '../query-bounds.js';
import { isMeasure, isMeasurePair } from '../../text/measure.js';

/** Below this many strong all-words matches, products matching only some words fill in after them (10 cost a quarter of uncached throughput for +0.003 nDCG; 5 gives +0.0024). */
export const FEW_STRONG = 5;

/**
 * Few strong matches (EngineHit.strong), or too few matches of every word to fill the page:
 * products matching some of the words fill in after the strong ones; a common word alone makes
 * no match. `relaxed` when nothing matched every word.
 */
export const fallback: SearchStep = {
  name: 'fallback',
  async run(s, env) {
    const strong = s.result.strong ?? s.result.total;
    if (s.plan.terms.length <= 1 || (strong >= FEW_STRONG && !pageShort(s))) return countDeferred(s, env);
    // The product type: the one learned from the store's titles, else the word naming a category of the store.
    const type = s.query.boost?.heads?.[0] ?? (s.query.boost?.categories?.length ? s.categoryWord : undefined);
    const { terms, keptLast } = rarest(typeFirst(markCommon(withModel(s.plan.terms), s.vocab), type, s.vocab), s.vocab);
    s.fallbackTerms = terms.length;
    const any = await env.engine.search({ ...s.query, terms, prefixLast: s.query.prefixLast && keptLast, matchAny: true });
    if (any.total <= strong) return countDeferred(s, env);
    s.relaxed = s.result.total === 0;
    s.result = mergeFallback(s.result, any, s.query);
  },
  trace: (s) => ({ relaxed: s.relaxed, total: s.result.total, terms: s.fallbackTerms ?? 0 }),
};

/**
 * Fewer matches of every word than FEW_MATCHES: an empty slot of a first page is worth a partial
 * match (nine "vanilla scented perfumes", then perfumes with the scent). A count, not the page
 * size asked for, so the first results are the same whatever the page size.
 */
export function pageShort(s: Pick<SearchState, 'result'>): boolean {
  return s.result.total < FEW_MATCHES;
}
/** A first page's worth of matches (the default page size). */
export const FEW_MATCHES = 10;

/** The all-words answer is kept: its facets, left out by the engine for the fallback (retrieve), are counted now. */
async function countDeferred(s: SearchState, env: StepEnv): Promise<void> {
  if (!s.result.facetsDeferred) return;
  const counted = await env.engine.search({ ...s.query, offset: 0, limit: 0 });
  s.result = { ...s.result, facets: counted.facets, facetsDeferred: undefined };
}

/**
 * The terms with the common ones marked (Vocabulary.isCommon), when another term is rarer and in
 * the catalog's words: "iphone x" falls back to the iPhones, not to every "1920 x 1080" screen.
 */
function markCommon(terms: QueryTerm[], vocab: Vocabulary): QueryTerm[] {
  const measures = measureTerms(terms);
  const common = terms.map((t, i) => measures[i] || t.alternatives.every((a) => a.every((w) => vocab.isCommon(w))));
  const anchored = terms.some((t, i) => !common[i] && t.alternatives.some((a) => a.every((w) => vocab.terms.has(w))));
  return anchored ? terms.map((t, i) => (common[i] ? { ...t, common: true } : t)) : terms;
}

/**
 * Terms of a measure: a number and the unit name after it ("32 gb", "500 ml"), as two terms or as the
 * plan's one (its words apart or glued: "32 gb", "32gb"). Matching any word, a measure alone makes no
 * match: "32 gb pen drive" falls back to pen drives, not to a "GB Jewellery" ring or anything else 32.
 * It still counts for the products that match another word (coverage), as rare as it is (Vocabulary.termWeight).
 */
export function measureTerms(terms: QueryTerm[]): boolean[] {
  const word = (t: QueryTerm | undefined) => (t && t.alternatives.length === 1 && t.alternatives[0].length === 1 ? t.alternatives[0][0] : '');
  const out = terms.map((t) => t.alternatives.length > 0 && isMeasure(t.alternatives[0]));
  for (let i = 0; i + 1 < terms.length; i++) {
    if (isMeasurePair(word(terms[i]), word(terms[i + 1]))) out[i] = out[i + 1] = true;
  }
  return out;
}

/**
 * A lone number after a word is that word's model number ("iphone 6", "galaxy note 3", "xbox 360"):
 * matching any word it counts only right after its word or one word further ("iPad Air 2" is an
 * iPad 2 for a shopper). A "6" elsewhere (a "Set of 6" tumblers, a "Honor 6" screen guard, a "Set
 * of 3 Note Pad") is not the model, and as the rarest word of the query it outweighed the rest.
 * Matching every word nothing changes.
 */
export function withModel(terms: QueryTerm[]): QueryTerm[] {
  const lone = (t: QueryTerm) => t.alternatives.length === 1 && t.alternatives[0].length === 1 && /^\d{1,4}$/.test(t.alternatives[0][0]);
  const word = (t: QueryTerm) => !t.preposition && t.alternatives.every((a) => a.length === 1 && /\p{L}/u.test(a[0]));
  if (!terms.some((t, i) => i > 0 && lone(t) && word(terms[i - 1]))) return terms;
  return terms.map((t, i) => {
    if (i === 0 || !lone(t) || !word(terms[i - 1])) return t;
    const number = t.alternatives[0][0];
    return { ...t, alternatives: terms[i - 1].alternatives.map((a) => [a[0], number]), near: true, exact: true };
  });
}

/**
 * The term naming the query's product type (Vocabulary.queryHead) weighs at least as much as any
 * word that names no type of the store, and among equal coverage products of that type come first
 * (the engine's head match): "outdoor table cover" falls back to table covers before outdoor
 * tables, however rare "outdoor" is. Between two types the rarer still wins ("longboard pads").
 */
export function typeFirst(terms: QueryTerm[], head: string | undefined, vocab: Vocabulary): QueryTerm[] {
  if (!head) return terms;
  const names = (t: QueryTerm) => t.alternatives.some((a) => a.includes(head));
  const modifiers = terms.filter((t) => !names(t) && t.alternatives.every((a) => a.every((w) => !vocab.isType(w))));
  const floor = Math.max(0, ...modifiers.map((t) => t.weight ?? 1));
  return terms.map((t) => (names(t) && (t.weight ?? 1) < floor ? { ...t, weight: floor } : t));
}

/**
 * At most MAX_FALLBACK_TERMS terms, the rarest in the catalog, in query order: a term's breadth
 * is its most frequent alternative word. Each ORed term adds a rank per matching row.
 */
function rarest(terms: QueryTerm[], vocab: Vocabulary): { terms: QueryTerm[]; keptLast: boolean } {
  if (terms.length <= MAX_FALLBACK_TERMS) return { terms, keptLast: true };
  const breadth = (t: QueryTerm) => Math.max(...t.alternatives.flat().map((w) => vocab.terms.get(w) ?? 0));
  const keep = terms
    .map((t, i) => ({ i, b: breadth(t) }))
    .sort((a, b) => a.b - b.b || a.i - b.i)
    .slice(0, MAX_FALLBACK_TERMS)
    .map((x) => x.i)
    .sort((a, b) => a - b);
  return { terms: keep.map((i) => terms[i]), keptLast: keep[keep.length - 1] === terms.length - 1 };
}

/** Strong all-words hits first, then the any-word hits that are not among them (weak all-words hits take their any-word place). */
function mergeFallback(all: EngineResult, any: EngineResult, q: EngineQuery): EngineResult {
  const first = all.hits.filter((h) => h.strong !== false);
  const seen = new Set(first.map((h) => h.id));
  const hits = [...first, ...any.hits.filter((h) => !seen.has(h.id))].slice(0, q.limit);
  return { total: any.total, hits, facets: any.facets };
}
