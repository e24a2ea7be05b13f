import { isCodeLike, normalizeText, tokenize } from '../text/normalize.js';
import { stem } from '../text/stem.js';

/**
 * What the products of one category are called: the name words that mark a typical product of
 * it, and the words most of its products carry. Built from the catalog at each vocabulary refresh.
 */
export interface CategoryProfile {
  category: string;
  /** Up to TYPICAL words, each with the share of the category's products whose name has it. */
  typical: Array<{ word: string; weight: number }>;
  /** Words (and their stems) in the names of at least COMMON_SHARE of the category's products. */
  common: string[];
}

const TYPICAL = 5;
const COMMON_SHARE = 0.2;
/** A typical word is this many times more frequent in the category than in the catalog. */
const MIN_LIFT = 2;
const MIN_PRODUCTS = 3;

/** Counts name words per category (document frequency), one product at a time. */
export class CategoryProfileBuilder {
  private products = 0;
  private wordProducts = new Map<string, number>();
  private categories = new Map<string, { size: number; words: Map<string, number> }>();

  /** `categories`: the product's category targets (leaf ids and level keys), as category intent returns them. */
  add(names: string[], categories: string[]): void {
    const words = new Set<string>();
    for (const name of names) {
      for (const w of tokenize(normalizeText(name))) if (w.length >= 2 && !isCodeLike(w)) words.add(w);
    }
    this.products++;
    for (const w of words) this.wordProducts.set(w, (this.wordProducts.get(w) ?? 0) + 1);
    for (const c of new Set(categories)) {
      let entry = this.categories.get(c);
      if (!entry) this.categories.set(c, (entry = { size: 0, words: new Map() }));
      entry.size++;
      for (const w of words) entry.words.set(w, (entry.words.get(w) ?? 0) + 1);
    }
  }

  build(): CategoryProfile[] {
    const out: CategoryProfile[] = [];
    for (const [category, { size, words }] of this.categories) {
      if (size < MIN_PRODUCTS) continue;
      const scored: Array<{ word: string; share: number; score: number }> = [];
      const common = new Set<string>();
      for (const [word, n] of words) {
        const share = n / size;
        if (share >= COMMON_SHARE) common.add(word).add(stem(word));
        const lift = share / (this.wordProducts.get(word)! / this.products);
        if (n >= MIN_PRODUCTS && lift > MIN_LIFT) scored.push({ word, share, score: share * Math.log(lift) });
      }
      scored.sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : 1));
      out.push({
        category,
        typical: scored.slice(0, TYPICAL).map((s) => ({ word: s.word, weight: Math.round(s.share * 1000) / 1000 })),
        common: [...common].sort(),
      });
    }
    return out;
  }
}

/** A profile as the search path holds it. */
export interface LoadedProfile {
  typical: CategoryProfile['typical'];
  common: Set<string>;
}

/**
 * The words that mark a typical product when a one-word query names a category by a word its
 * products are rarely called ("laptop" for a category of "... Notebook PC" names): there, the few
 * products with the query's word in their name are mostly accessories ("laptop keyboard"), so
 * typical products should come first. Empty when the query's word is what the products are
 * commonly called: then the words themselves rank well.
 */
export function typicalWords(tokens: string[], intent: string[], profiles: Map<string, LoadedProfile>): CategoryProfile['typical'] {
  if (tokens.length !== 1 || !intent.length) return [];
  const profile = intent.map((c) => profiles.get(c)).find((p) => p && p.typical.length);
  if (!profile) return [];
  const word = tokens[0];
  return profile.common.has(word) || profile.common.has(stem(word)) ? [] : profile.typical;
}

/**
 * Of the categories a query's head word names, the ones whose products commonly carry the
 * query's other words: "external cd drive" names optical, hard and flash drives by "drive", and
 * optical drives are the ones commonly called "external". All of them when no other word tells
 * them apart.
 */
export function narrowIntent(tokens: string[], intent: string[], profiles: Map<string, LoadedProfile>): string[] {
  if (tokens.length < 2 || intent.length < 2) return intent;
  // The head word too (its place differs between Arabic and English): it counts the same for categories commonly called by it.
  const words = tokens.map((w) => [w, stem(w)]);
  const agree = intent.map((c) => {
    const common = profiles.get(c)?.common;
    return common ? words.filter((forms) => forms.some((f) => common.has(f))).length : 0;
  });
  const best = Math.max(...agree);
  return best > 0 ? intent.filter((_, i) => agree[i] === best) : intent;
}
