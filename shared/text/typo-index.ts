import { editDistance, typoBudget } from './typo.js';

/** How many of the terms sharing the most trigrams with a word get an edit-distance check. */
const CHECKED = 64;

/** pg_trgm-style trigrams of a word: padded with two spaces in front and one behind. */
function trigrams(word: string): string[] {
  const padded = `  ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return [...out];
}

/**
 * Typo correction candidates from a tenant's vocabulary held in memory: a trigram index finds
 * the terms that share the most trigrams with an unknown word (transpositions included, which a
 * similarity threshold would drop), and an edit-distance check keeps those within the word's
 * typo budget. Built once per vocabulary; a lookup allocates only its result.
 */
export class TypoIndex {
  private words: string[];
  private freqs: Float64Array;
  private postings = new Map<string, Int32Array>();
  /** Scratch counters, one per term, reset after each lookup. */
  private shared: Uint16Array;

  constructor(terms: Map<string, number>) {
    this.words = [...terms.keys()];
    this.freqs = Float64Array.from(terms.values());
    this.shared = new Uint16Array(this.words.length);
    const lists = new Map<string, number[]>();
    this.words.forEach((w, i) => {
      for (const g of trigrams(w)) {
        const list = lists.get(g);
        if (list) list.push(i);
        else lists.set(g, [i]);
      }
    });
    for (const [g, list] of lists) this.postings.set(g, Int32Array.from(list));
  }

  /** The closest term within `token`'s typo budget (the most frequent among equally close ones), or null. */
  correction(token: string): string | null {
    return this.candidates(token)[0]?.term ?? null;
  }

  /**
   * The closest, then most frequent, term that starts with `prefix` give or take its typo budget ("blutoo":
   * bluetooth, whose start "blueto" is one edit away), or null. For completing what a shopper is
   * still typing: the term's start of the prefix's length, up to the budget shorter or longer, counts.
   */
  prefixCorrection(prefix: string): string | null {
    const budget = typoBudget(prefix);
    if (!budget) return null;
    // A prefix has no end: its last trigram (the word's end) is left out, and longer terms are welcome.
    const grams = trigrams(prefix).filter((g) => !g.endsWith(' '));
    let best = -1;
    let bestD = budget + 1;
    for (const i of this.mostShared(grams, (len) => len >= prefix.length - budget)) {
      const w = this.words[i];
      let d = budget + 1;
      for (let n = prefix.length - budget; n <= prefix.length + budget && d > 0; n++) d = Math.min(d, editDistance(prefix, w.slice(0, n), budget));
      if (d > 0 && (d < bestD || (d === bestD && this.freqs[i] > this.freqs[best]))) {
        best = i;
        bestD = d;
      }
    }
    return best < 0 ? null : this.words[best];
  }

  /** Terms within `token`'s typo budget (1 edit from 4 characters, 2 from 8), closest first, then most frequent. */
  candidates(token: string): Array<{ term: string; freq: number }> {
    const budget = typoBudget(token);
    if (!budget) return [];
    const found: Array<{ term: string; freq: number; d: number }> = [];
    for (const i of this.mostShared(trigrams(token), (len) => Math.abs(len - token.length) <= budget)) {
      const d = editDistance(token, this.words[i], budget);
      if (d <= budget) found.push({ term: this.words[i], freq: this.freqs[i], d });
    }
    found.sort((a, b) => a.d - b.d || b.freq - a.freq);
    return found.map(({ term, freq }) => ({ term, freq }));
  }

  /** The CHECKED terms (of a length `fits` allows) sharing the most of `grams`, then the most frequent: the ones worth an edit-distance check. */
  private mostShared(grams: string[], fits: (length: number) => boolean): number[] {
    const touched: number[] = [];
    for (const g of grams) {
      const list = this.postings.get(g);
      if (!list) continue;
      for (let k = 0; k < list.length; k++) {
        const i = list[k];
        if (!fits(this.words[i].length)) continue;
        if (this.shared[i]++ === 0) touched.push(i);
      }
    }
    touched.sort((a, b) => this.shared[b] - this.shared[a] || this.freqs[b] - this.freqs[a]);
    for (const i of touched) this.shared[i] = 0;
    return touched.length > CHECKED ? touched.slice(0, CHECKED) : touched;
  }
}
