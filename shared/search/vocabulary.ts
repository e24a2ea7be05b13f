import { TypoIndex } from '../text/typo-index.js';

/** See Vocabulary.isCommon. */
const COMMON_SHARE = 0.1;
/** In a small catalog, a word a handful of products carry still tells them apart. */
const COMMON_MIN = 50;

/**
 * A tenant's catalog vocabulary in the API process: every indexed word with its frequency
 * (known words, compounds) and the typo index over them, built once per vocabulary change.
 */
export class Vocabulary {
  readonly typos: TypoIndex;

  /** `products`: how many products the frequencies were counted over. */
  constructor(readonly terms: Map<string, number>, readonly products = 0) {
    this.typos = new TypoIndex(terms);
  }

  /**
   * Whether a word is in at least COMMON_SHARE of the products (and COMMON_MIN), or shorter than
   * the words counted ("x" of "iphone x"): in a query matching any word, such a word alone makes no match.
   */
  isCommon(word: string): boolean {
    if (word.length < 2) return true;
    return this.products > 0 && (this.terms.get(word) ?? 0) >= Math.max(COMMON_SHARE * this.products, COMMON_MIN);
  }
}
