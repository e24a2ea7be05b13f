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
  /** Each term's length, read for every posting a lookup walks. */
  private lengths: Uint32Array;
  private postings = new Map<string, Int32Array>();
  /** Scratch counters, one per term, reset after each lookup. */
  private shared: Uint16Array;

  constructor(terms: Map<string, number>) {
    this.words = [...terms.keys()];
    this.freqs = Float64Array.from(terms.values());
    this.lengths = Uint32Array.from(this.words, (w) => w.length);
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

  /** The closest term within `token`'s typo budget (of equally close ones, one with the same first letter, then the most frequent), or null. */
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
    for (const i of this.mostShared(grams, prefix.length - budget, Infinity)) {
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

  /**
   * Terms within `token`'s typo budget (1 edit from 4 characters, 2 from 8), closest first, then those
   * keeping its first letter (typing errors seldom strike the first letter: "ihone" is "iphone", a
   * letter left out, before "phone", as frequent as it is), then the most frequent.
   */
  candidates(token: string): Array<{ term: string; freq: number }> {
    const budget = typoBudget(token);
    if (!budget) return [];
    const found: Array<{ term: string; freq: number; d: number }> = [];
    for (const i of this.mostShared(trigrams(token), token.length - budget, token.length + budget)) {
      const d = editDistance(token, this.words[i], budget);
      if (d <= budget) found.push({ term: this.words[i], freq: this.freqs[i], d });
    }
    const first = token[0];
    found.sort((a, b) => a.d - b.d || Number(b.term[0] === first) - Number(a.term[0] === first) || b.freq - a.freq);
    return found.map(({ term, freq }) => ({ term, freq }));
  }

  /**
   * The CHECKED terms (of `shortest` to `longest` characters) sharing the most of `grams`, then the most frequent: the ones worth an
   * edit-distance check. Only the terms sharing at least as many grams as the CHECKED-th one are sorted (a word's common
   * grams touch thousands of terms, most of them sharing one or two).
   */
  private mostShared(grams: string[], shortest: number, longest: number): number[] {
    const touched: number[] = [];
    let most = 0;
    for (const g of grams) {
      const list = this.postings.get(g);
      if (!list) continue;
      for (let k = 0; k < list.length; k++) {
        const i = list[k];
        const length = this.lengths[i];
        if (length < shortest || length > longest) continue;
        const n = ++this.shared[i];
        if (n === 1) touched.push(i);
        else if (n > most) most = n;
      }
    }
    const kept = touched.length > CHECKED ? this.sharingAtLeast(touched, this.cutoff(touched, Math.max(most, 1))) : touched;
    // Stable: equally sharing, equally frequent terms keep their order of first touch.
    kept.sort((a, b) => this.shared[b] - this.shared[a] || this.freqs[b] - this.freqs[a]);
    for (const i of touched) this.shared[i] = 0;
    return kept.length > CHECKED ? kept.slice(0, CHECKED) : kept;
  }

  /** The shared-gram count of the CHECKED-th term when sorted by it (every term sharing as many stays in the running). */
  private cutoff(touched: number[], most: number): number {
    const perCount = new Uint32Array(most + 1);
    for (const i of touched) perCount[this.shared[i]]++;
    let above = 0;
    for (let n = most; n > 1; n--) {
      above += perCount[n];
      if (above >= CHECKED) return n;
    }
    return 1;
  }

  /** `touched` terms sharing at least `n` grams, in their order of first touch. */
  private sharingAtLeast(touched: number[], n: number): number[] {
    if (n <= 1) return touched;
    const out: number[] = [];
    for (const i of touched) if (this.shared[i] >= n) out.push(i);
    return out;
  }
}
