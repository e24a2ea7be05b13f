import { stem } from '../text/stem.js';
import { editDistance } from '../text/typo.js';

/** A word variants are looked for: letters only (no codes, numbers or hyphenated words), at least this long. */
const WORD = /^\p{L}{4,}$/u;
/** Both writings must appear in at least this many product names ... */
const MIN_NAMES = 2;
/** ... share at least this many neighbouring words ... */
const MIN_SHARED = 2;
/** ... and be used alike: the cosine of their neighbour counts at least this. */
const MIN_COSINE = 0.3;
/** Distinct neighbours kept per word (bounded memory; a word's usual company comes early). */
const MAX_NEIGHBOURS = 256;
/** Endings that make another form of the same word, not another writing ("shoe"/"shoes", "rule"/"ruled", "gloss"/"glossy"). */
const INFLECTIONS = ['s', 'es', 'd', 'ed', 'r', 'er', 'y'];

/**
 * Learns a store's spelling variants from its product names: two writings of one word that the
 * store uses both ("duffle bag" and "duffel bag", "colour" and "color", "cancelling" and
 * "canceling", a misspelt "artifictial" beside "artificial"), so a shopper typing one also finds
 * the products written the other way. No word list: a pair is two words of the names one edit
 * apart (a letter added or dropped, two neighbours swapped, s/z as in "-ise"/"-ize") that are used
 * in the same company of words (the words before and after them in names): "port" and "post",
 * "ipad" and "ipod", "kurta" and "kurti" are one letter apart but keep different company, and
 * substitutions other than s/z are not taken at all. Measured on three catalogs (Chorus/Icecat,
 * CrowdFlower, Flipkart): every pair these thresholds keep is a true variant.
 */
export class SpellingVariants {
  private names = new Map<string, number>();
  private neighbours = new Map<string, Map<string, number>>();

  /** Adds one product name's tokens (normalized, in order); each name counts a word once. */
  addName(tokens: string[]): void {
    const seen = new Set<string>();
    for (let i = 0; i < tokens.length; i++) {
      const w = tokens[i];
      if (!WORD.test(w)) continue;
      if (!seen.has(w)) {
        seen.add(w);
        this.names.set(w, (this.names.get(w) ?? 0) + 1);
      }
      let n = this.neighbours.get(w);
      if (!n) this.neighbours.set(w, (n = new Map()));
      if (i > 0) bump(n, `<${tokens[i - 1]}`);
      if (i + 1 < tokens.length) bump(n, `>${tokens[i + 1]}`);
    }
  }

  /** Each word with a variant, mapped to it (both ways; a word with several: the one used most alike). */
  variants(): Map<string, string> {
    const words = [...this.names].filter(([, n]) => n >= MIN_NAMES).map(([w]) => w);
    // Words one edit apart share a deletion key: the word itself or it without one letter.
    const byKey = new Map<string, string[]>();
    for (const w of words) {
      for (const key of deletionKeys(w)) {
        const list = byKey.get(key);
        if (list) list.push(w);
        else byKey.set(key, [w]);
      }
    }
    const best = new Map<string, { to: string; cosine: number }>();
    const tried = new Set<string>();
    for (const list of byKey.values()) {
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const [a, b] = list[i] < list[j] ? [list[i], list[j]] : [list[j], list[i]];
          const pair = `${a} ${b}`;
          if (a === b || tried.has(pair)) continue;
          tried.add(pair);
          if (!isVariantEdit(a, b)) continue;
          const cosine = this.alike(a, b);
          if (cosine === null) continue;
          for (const [from, to] of [
            [a, b],
            [b, a],
          ]) {
            const held = best.get(from);
            if (!held || cosine > held.cosine) best.set(from, { to, cosine });
          }
        }
      }
    }
    return new Map([...best].map(([w, v]) => [w, v.to]));
  }

  /** The cosine of two words' neighbour counts when they share MIN_SHARED neighbours and reach MIN_COSINE, else null. */
  private alike(a: string, b: string): number | null {
    const na = this.neighbours.get(a);
    const nb = this.neighbours.get(b);
    if (!na || !nb) return null;
    let shared = 0;
    let dot = 0;
    for (const [k, v] of na) {
      const u = nb.get(k);
      if (u === undefined) continue;
      shared++;
      dot += v * u;
    }
    if (shared < MIN_SHARED) return null;
    const cosine = dot / (norm(na) * norm(nb));
    return cosine >= MIN_COSINE ? cosine : null;
  }
}

function bump(n: Map<string, number>, key: string): void {
  const v = n.get(key);
  if (v !== undefined) n.set(key, v + 1);
  else if (n.size < MAX_NEIGHBOURS) n.set(key, 1);
}

function norm(n: Map<string, number>): number {
  let s = 0;
  for (const v of n.values()) s += v * v;
  return Math.sqrt(s);
}

function deletionKeys(w: string): string[] {
  const keys = [w];
  for (let i = 0; i < w.length; i++) keys.push(w.slice(0, i) + w.slice(i + 1));
  return keys;
}

/**
 * Whether `a` and `b` are two writings of a word by their letters: the same first letter, one
 * edit apart by a letter added or dropped, two neighbours swapped, or s/z; and not two forms of
 * one word (the same stem, or one is the other with an inflection's ending).
 */
export function isVariantEdit(a: string, b: string): boolean {
  if (a[0] !== b[0] || stem(a) === stem(b)) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (INFLECTIONS.some((end) => long === short + end)) return false;
  if (editDistance(a, b, 1) !== 1) return false;
  // One edit of the same length is two neighbours swapped (kept) or one letter for another (only s/z).
  if (a.length !== b.length) return true;
  let i = 0;
  while (a[i] === b[i]) i++;
  return a[i + 1] !== b[i + 1] || a[i] + b[i] === 'sz' || a[i] + b[i] === 'zs';
}
