import type { QueryTerm } from '../engines/lexical/port.js';
import { TypoIndex } from '../text/typo-index.js';
import { isArabic, isCodeLike } from '../text/normalize.js';
import { stem } from '../text/stem.js';
import { headForms } from '../text/product-head.js';
import { isIntentWord } from '../text/intent-words.js';
import { isMeasure } from '../text/measure.js';

/** See Vocabulary.isCommon. */
const COMMON_SHARE = 0.1;
/** In a small catalog, a word a handful of products carry still tells them apart. */
const COMMON_MIN = 50;
/** A word is one of the store's product types when it is the head of at least this many products. */
const MIN_TYPE_PRODUCTS = 3;
/** ... and the head of at least this share of the products that carry it. */
const TYPE_SHARE = 0.1;
/** A word is one of the store's brand words when at least this many product names open with it ... */
const MIN_OPENER_PRODUCTS = 3;
/** ... and at least this share of the products carrying it open their names with it ("crocs" of "Crocs Cleo Sandals", not of "Lite Crocs Rule Cartridge"). */
const OPENER_SHARE = 0.5;
/**
 * A typo correction to a word only one of the store's products carries is a guess: it weighs
 * df / (df + CORRECTION_PRIOR), a third ("baby carrier" read as "baby cartier", the one Cartier watch,
 * weighed as the rarest word of the store). From two products on, a correction weighs fully: a
 * gentler prior (df / (df + 2) for every df) cost the judged typo queries more than it gave
 * (`longboaard pads`: the few longboards fell below mattress pads; README, Relevance).
 */
const CORRECTION_PRIOR = 2;
/**
 * A correction to a word only the store's descriptions have (Vocabulary.descriptionCorrection) is surer
 * than none and less sure than any name word: half of a name word on one product's confidence. The
 * plan step also keeps it at most as heavy as the lightest word the shopper typed as the store writes
 * it (plan.step.ts), so it never outranks matches on those.
 */
const DESCRIBED_CONFIDENCE = 1 / (1 + CORRECTION_PRIOR) / 2;
/** Words or codes joined by hyphens ("t-shirt", "wi-fi", "tn-2110", "sm-g980f"). */
const HYPHENATED = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+$/u;
/**
 * What follows these in a query qualifies the product named before them ("bike for children"):
 * general-language prepositions. Not "of": what follows it is the product ("pack of 3 socks",
 * "set of knives"), as the title head rules read it (shared/text/product-head.ts).
 */
const QUALIFIERS = new Set(['for', 'with', 'without', 'by', 'from', 'to', 'in', 'on', 'w', 'ل', 'مع', 'بدون', 'من', 'الى', 'في']);
/** Prepositions (general language): the qualifiers and "of". */
const PREPOSITIONS = new Set([...QUALIFIERS, 'of']);

/** Where a query's qualifier starts ("bike for children": 1, at "for"), or -1: a preposition after its first word. */
export function qualifierAt(tokens: string[]): number {
  return tokens.findIndex((t, i) => i > 0 && QUALIFIERS.has(t));
}

/**
 * The terms with the words of the query's qualifier marked (QueryTerm.qualifier): the terms whose
 * typed words all come after its preposition, and none before it. `tokens`: the query's tokens (the
 * preposition may be left out of the terms: an intent word the catalog does not know).
 */
export function markQualifier(terms: QueryTerm[], tokens: string[]): QueryTerm[] {
  const cut = qualifierAt(tokens);
  if (cut < 0) return terms;
  const before = new Set(tokens.slice(0, cut + 1));
  const after = new Set(tokens.slice(cut + 1));
  const qualifies = (t: QueryTerm) => {
    const typed = t.alternatives[0] ?? [];
    return typed.length > 0 && typed.every((w) => after.has(w) && !before.has(w));
  };
  return terms.some((t) => !qualifies(t)) ? terms.map((t) => (qualifies(t) ? { ...t, qualifier: true } : t)) : terms;
}

/** The terms whose typed words are all prepositions (the general-language list above) marked (QueryTerm.preposition): prose is full of them. */
export function markPrepositions(terms: QueryTerm[]): QueryTerm[] {
  const isPreposition = (t: QueryTerm) => (t.alternatives[0] ?? []).length > 0 && t.alternatives[0].every((w) => PREPOSITIONS.has(w));
  return terms.some(isPreposition) ? terms.map((t) => (isPreposition(t) ? { ...t, preposition: true } : t)) : terms;
}

/**
 * A tenant's catalog vocabulary in the API process: every indexed word with its frequency
 * (known words, compounds, rarity), the typo index over them, and the store's product types (head
 * nouns of its titles, shared/text/product-head.ts), built once per vocabulary change.
 */
export class Vocabulary {
  readonly typos: TypoIndex;
  /** Products whose head noun has this stem. */
  private types = new Map<string, number>();
  /** Products with a word of this stem (summed over its forms: the engine matches a word by its stem too). */
  private stemFreq = new Map<string, number>();
  /** Hyphenated words and codes by their joined writing ("tshirt" -> "t-shirt", "tn2110" -> "tn-2110"), the most frequent one of each. */
  private joined = new Map<string, string>();
  /** The typo index over the description-only words (descriptionCorrection), or null without any. */
  private describedTypos: TypoIndex | null;

  /**
   * `products`: how many products the frequencies were counted over; `heads`: head noun -> products
   * it is the head of; `nameWords`: the words of their names, summed; `described`: the description-only
   * words with how many descriptions have them (VocabularyBuilder.describedTerms, already capped).
   */
  constructor(
    readonly terms: Map<string, number>,
    readonly products = 0,
    heads: Map<string, number> = new Map(),
    private nameWords = 0,
    private openings: Map<string, number> = new Map(),
    private variants: Map<string, string> = new Map(),
    private described: Map<string, number> = new Map(),
  ) {
    this.typos = new TypoIndex(terms);
    this.describedTypos = described.size ? new TypoIndex(described) : null;
    for (const [word, n] of terms) {
      const s = stem(word);
      this.stemFreq.set(s, (this.stemFreq.get(s) ?? 0) + n);
      if (word.includes('-') && HYPHENATED.test(word)) {
        const key = word.replaceAll('-', '');
        const held = this.joined.get(key);
        if (!held || (terms.get(held) ?? 0) < n) this.joined.set(key, word);
      }
    }
    for (const [word, n] of heads) {
      const s = stem(word);
      this.types.set(s, (this.types.get(s) ?? 0) + n);
    }
  }

  /**
   * The store's hyphenated writing of a word or code typed without its hyphens ("tshirts": "t-shirts",
   * "wifi": "wi-fi", "tn2110": "tn-2110"), when the store writes it that way more often than as typed; else null.
   */
  hyphenated(word: string): string | null {
    const h = this.joined.get(word);
    return h !== undefined && (this.terms.get(h) ?? 0) > (this.terms.get(word) ?? 0) ? h : null;
  }

  /**
   * The store's other writing of a word it uses both ways in the same company ("duffle": "duffel";
   * shared/search/spelling-variants.ts), or null.
   */
  variant(word: string): string | null {
    return this.variants.get(word) ?? null;
  }

  /** The store's average name length in words (its title style: terse or spec-sheet), or undefined without counts. */
  get averageNameWords(): number | undefined {
    if (!this.products || !this.nameWords) return undefined;
    return Math.round((this.nameWords / this.products) * 100) / 100;
  }

  /**
   * Whether a word is in at least COMMON_SHARE of the products (and COMMON_MIN), or shorter than
   * the words counted ("x" of "iphone x"): in a query matching any word, such a word alone makes no match.
   */
  isCommon(word: string): boolean {
    if (word.length < 2) return true;
    return this.products > 0 && (this.terms.get(word) ?? 0) >= Math.max(COMMON_SHARE * this.products, COMMON_MIN);
  }

  /** BM25's idf of a word over the store's products: ln(1 + (N - df + 0.5) / (df + 0.5)); 1 without counts. */
  idf(word: string): number {
    if (!this.products) return 1;
    const df = Math.min(this.docFreq(word), this.products);
    return Math.log(1 + (this.products - df + 0.5) / (df + 0.5));
  }

  /**
   * The rarity of a query term: an alternative needs all its words (as rare as its rarest), the term
   * any alternative (as rare as its most common one). Rounded: it is part of no cache key, only of scoring.
   */
  termWeight(term: QueryTerm): number {
    const alts = term.alternatives.filter((a) => a.length);
    if (!alts.length) return 1;
    // A measure ("32 gb" or "32gb") is as rare as its glued writing: the vocabulary counts words, not
    // phrases, and a number and a unit are each common where the measure is not.
    const glued = alts.some((a) => a.length === 2 && isMeasure(a)) ? alts.find((a) => a.length === 1 && isMeasure(a)) : undefined;
    if (glued) return Math.round(this.idf(glued[0]) * 1000) / 1000;
    const w = Math.min(...alts.map((a) => Math.max(...a.map((word) => this.idf(word)))));
    return Math.round(w * 1000) / 1000;
  }

  /**
   * How sure a typo correction to `word` is, from the store's own counts (see CORRECTION_PRIOR): a
   * corrected term weighs its rarity times this, so a guess of a word on one product does not
   * outweigh the words the shopper typed as the catalog writes them.
   */
  correctionConfidence(word: string): number {
    const df = this.docFreq(word);
    if (df === 0 && this.described.has(word)) return DESCRIBED_CONFIDENCE;
    return df >= 2 ? 1 : df / (df + CORRECTION_PRIOR);
  }

  /**
   * The last-resort correction of a word the vocabulary neither knows nor corrects: the closest of the
   * store's description-only words (the store's descriptions say "earbuds", its names "headphones"), or
   * null. A word the descriptions themselves have is no typo.
   */
  descriptionCorrection(word: string): string | null {
    if (!this.describedTypos || this.described.has(word) || this.terms.has(word)) return null;
    return this.describedTypos.correction(word);
  }

  /** Whether a word is one of the store's description-only words (descriptionCorrection draws from them). */
  isDescribed(word: string): boolean {
    return this.described.has(word);
  }

  /** How many of the store's products are of the type a word names (by its stem). */
  typeCount(word: string): number {
    return this.types.get(stem(word)) ?? 0;
  }

  /**
   * Whether a word names one of the store's product types: the head of MIN_TYPE_PRODUCTS products
   * and of at least TYPE_SHARE of the products whose names carry it ("outdoor" is in many names,
   * rarely their head; "cover" is the head of most names that have it).
   */
  isType(word: string): boolean {
    const n = this.typeCount(word);
    if (n < MIN_TYPE_PRODUCTS) return false;
    return n >= TYPE_SHARE * Math.max(this.docFreq(word), n);
  }

  /**
   * Whether a word is one of the store's brand words, learned from how its titles start: it opens
   * at least MIN_OPENER_PRODUCTS product names and OPENER_SHARE of the names of the products that
   * carry it (marketplace and spec-sheet titles open with the maker: "Crocs Cleo Womens Sandals",
   * "HP ProCurve 2524 Switch"; a word that opens a few names among many is no brand: "white", "patio").
   * An intent word is never one ("womens" opens the names of a brand "Womens Trendz" on Flipkart,
   * whose other products write "Women's").
   */
  isOpener(word: string): boolean {
    if (isIntentWord(word)) return false;
    const n = this.openings.get(word) ?? 0;
    return n >= MIN_OPENER_PRODUCTS && n >= OPENER_SHARE * (this.terms.get(word) ?? n);
  }

  /** Products with the word or another form of its stem ("pads": pad and pads). */
  docFreq(word: string): number {
    return Math.max(this.terms.get(word) ?? 0, this.stemFreq.get(stem(word)) ?? 0);
  }

  /**
   * The product type a query names, as head forms to match documents' heads, or [] when it names
   * none of the store's types. Its head word is the last word (the first in Arabic) before a
   * qualifier ("bike for children": bike) that is one of the store's product types; other words
   * of the query are tried in that order when it is not ("sunglasses polarized": sunglasses).
   */
  queryHead(tokens: string[]): string[] {
    const cut = qualifierAt(tokens);
    const words = (cut > 0 ? tokens.slice(0, cut) : tokens).filter((w) => w.length >= 2 && !isCodeLike(w));
    const ordered = isArabic(words.join(' ')) ? words : [...words].reverse();
    const head = ordered.find((w) => this.isType(w));
    return head ? headForms(head) : [];
  }
}
