import { planQuery } from '../query-plan.js';
import { namedCategories } from '../category-intent.js';
import { narrowIntent, typicalWords } from '../category-profile.js';
import { markPrepositions, markQualifier } from '../vocabulary.js';
import { queryAudience } from '../../text/audience.js';
import type { SearchStep } from './state.js';
import type { QueryTerm } from '../../engines/lexical/port.js';
import { withoutArticle } from '../../text/stem.js';

/**
 * The engine query: terms with compounds and typo corrections as alternatives, the categories
 * the query names (narrowed by its other words) and the words of their typical products, each
 * term's rarity, and the product type the query names (learned from the store's titles).
 */
export const plan: SearchStep = {
  name: 'plan',
  run(s) {
    const { tokens, vocab, ranking, ctx, input } = s;
    s.plan = planQuery({
      tokens,
      segments: s.segments,
      terms: vocab.terms,
      typoTolerance: ranking.typo_tolerance,
      correct: (word) => vocab.typos.correction(word),
      correctFromDescriptions: (word) => vocab.descriptionCorrection(word),
      hyphenated: (word) => vocab.hyphenated(word),
      variant: (word) => vocab.variant(word),
    });
    // Each term's rarity in this store: partial matches and field scores weigh a rare word above a common one.
    // A term the shopper mistyped weighs as much as its correction is sure.
    const guessed = s.plan.corrections.length ? new Map(s.plan.corrections.map((c) => [c.to, vocab.correctionConfidence(c.to)])) : NO_GUESSES;
    s.plan.terms = s.plan.terms.map((t) => ({ ...t, weight: correctedWeight(t, vocab.termWeight(t), guessed) }));
    // A correction from the descriptions alone weighs no more than the lightest word typed as the store writes it.
    if (s.plan.corrections.some((c) => vocab.isDescribed(c.to))) s.plan.terms = belowTypedWords(s.plan.terms, s.plan.corrections, vocab);
    // "bike for children": matching any word, the qualifier's words count in descriptions too.
    s.plan.terms = markPrepositions(markQualifier(s.plan.terms, tokens));
    // What the query names is read from its words as corrected: "blendr" names blenders (its type),
    // not their jars; "laptpo" the laptops' category.
    const { corrections } = s.plan;
    const words = corrections.length ? tokens.map((t) => corrections.find((c) => c.from === t)?.to ?? t) : tokens;
    const heads = vocab.queryHead(words.filter((t) => !s.plan.intents.includes(t)));
    const named = namedCategories(words, ctx.categories);
    s.categoryWord = named?.word;
    const intent = narrowIntent(words, named?.targets ?? [], ctx.profiles);
    const typical = typicalWords(words, intent, ctx.profiles);
    s.query = {
      tenantId: s.tenantId,
      lang: s.lang,
      tokens,
      terms: s.plan.terms,
      preferFirstAlternative: s.segments.some((x) => x.ruleIds.length),
      // A finished catalog word is taken as typed; only a word the catalog does not know may be a prefix (an intent word left out is not one).
      prefixLast: tokens.length > 0 && !vocab.terms.has(tokens[tokens.length - 1]) && !s.plan.intents.includes(tokens[tokens.length - 1]),
      filters: s.filters,
      sort: s.sort,
      offset: (input.page - 1) * input.perPage,
      limit: input.perPage,
      facets: s.facetNames,
      ...(input.facetsFollowFilters ? { facetsFollowFilters: true } : {}),
      boost: {
        inStockFirst: ranking.in_stock_first,
        popularity: ranking.business_signals.popularity ?? 0,
        margin: ranking.business_signals.margin ?? 0,
        categories: intent,
        typical,
        heads,
        nameWords: vocab.averageNameWords,
        openers: words.filter((t) => !s.plan.intents.includes(t) && vocab.isOpener(t)),
        audience: queryAudience(words) ?? undefined,
      },
    };
    if (s.query.prefixLast) s.query.terms = withBareLast(s.query.terms!, tokens[tokens.length - 1]);
  },
  trace: (s) => ({
    weights: s.plan.terms.map((t) => t.weight),
    product_type: s.query.boost?.heads?.[0] ?? null,
    brand_words: s.query.boost?.openers ?? [],
    corrections: s.plan.corrections,
    compounds: s.plan.compounds,
    variants: s.plan.variants,
    intents_not_matched: s.plan.intents,
    categories: s.query.boost?.categories,
    typical: s.query.boost?.typical,
  }),
};

const NO_GUESSES: ReadonlyMap<string, number> = new Map();

/** A term's weight, times the confidence of the typo correction among its alternatives (if any); rounded as termWeight is. */
function correctedWeight(term: QueryTerm, weight: number, guessed: ReadonlyMap<string, number>): number {
  if (!guessed.size) return weight;
  const alt = term.alternatives.find((a) => a.length === 1 && guessed.has(a[0]));
  return alt ? Math.round(weight * guessed.get(alt[0])! * 1000) / 1000 : weight;
}

/** The terms with each one corrected to a description-only word weighing at most the lightest uncorrected term (unchanged without one). */
function belowTypedWords(terms: QueryTerm[], corrections: Array<{ from: string; to: string }>, vocab: { isDescribed(word: string): boolean }): QueryTerm[] {
  const described = new Set(corrections.filter((c) => vocab.isDescribed(c.to)).map((c) => c.to));
  const corrected = new Set(corrections.map((c) => c.to));
  const isDescribedGuess = (t: QueryTerm) => t.alternatives.some((a) => a.length === 1 && described.has(a[0]));
  const typed = terms.filter((t) => !t.alternatives.some((a) => a.length === 1 && corrected.has(a[0])));
  if (!typed.length) return terms;
  const lightest = Math.min(...typed.map((t) => t.weight ?? 1));
  return terms.map((t) => (isDescribedGuess(t) && (t.weight ?? 1) > lightest ? { ...t, weight: lightest } : t));
}

/**
 * A last word typed with the Arabic article ("القمي" of "القميص") is also a prefix without it: the store writes the bare
 * word, and the article never is a prefix of it. Only when the word is its own term (not a phrase, a code or a synonym's).
 */
function withBareLast(terms: QueryTerm[], last: string): QueryTerm[] {
  const term = terms[terms.length - 1];
  const bare = withoutArticle(last, 2);
  if (!bare || !term || term.exact || term.alternatives[0]?.length !== 1 || term.alternatives[0][0] !== last) return terms;
  if (term.alternatives.some((a) => a.length === 1 && a[0] === bare)) return terms;
  return [...terms.slice(0, -1), { ...term, alternatives: [...term.alternatives, [bare]] }];
}
