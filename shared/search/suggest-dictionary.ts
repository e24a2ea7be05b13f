import type { SuggestRow } from './vocabulary.repo.js';
import { labelLang } from '../text/normalize.js';
import { withoutArticle } from '../text/stem.js';

const KINDS: SuggestRow['kind'][] = ['query', 'brand', 'category'];
/** Answers kept per dictionary (the most recently used): typing repeats the same short prefixes. */
const MEMO = 1000;

/**
 * A tenant's suggestion dictionary in memory (the `suggest_terms` rows). Entries are sorted by
 * normalized text, so texts starting with a prefix are one binary search; the later word starts
 * inside them are grouped by their first 3 characters. Matching and order are those of the former
 * SQL: texts starting with the prefix (best `2 * limit` by weight), then, from 3 characters, texts
 * with a later word starting with it (best `limit`), at most `2 * limit` rows in all.
 */
export class SuggestDictionary {
  readonly size: number;
  private norms: string[];
  private displays: string[];
  private targets: Array<string | null>;
  private kinds: Uint8Array;
  private weights: Float64Array;
  /** Later word starts (entry index and offset), grouped by their first 3 characters: group g is [bounds[g], bounds[g + 1]). */
  private groups = new Map<string, number>();
  private bounds: Uint32Array;
  private wordEntry: Uint32Array;
  private wordAt: Uint16Array;
  /** Answers made from this dictionary, least recently used first; a rebuilt dictionary starts empty. */
  private answers = new Map<string, unknown>();
  private categoryLabels: Map<string, Record<string, string>> | null = null;

  /** Rows in any order; sorting is skipped when they come sorted by norm already (the repo asks Postgres to). */
  constructor(rows: SuggestRow[]) {
    const sorted = rows.every((r, i) => i === 0 || rows[i - 1].norm <= r.norm);
    const ordered = sorted ? rows : [...rows].sort((a, b) => (a.norm < b.norm ? -1 : a.norm > b.norm ? 1 : 0));
    this.size = rows.length;
    // Arrays from map() are allocated at their exact length: no spare capacity held per tenant.
    this.norms = ordered.map((r) => r.norm);
    // A few displays equal their norm (Arabic, lower-case queries): those share one string.
    this.displays = ordered.map((r) => (r.display === r.norm ? r.norm : r.display));
    this.targets = ordered.map((r) => r.target);
    this.kinds = Uint8Array.from(ordered, (r) => KINDS.indexOf(r.kind));
    this.weights = Float64Array.from(ordered, (r) => r.weight);
    const counts: number[] = [];
    for (const norm of this.norms) {
      this.eachWordStart(norm, (key) => {
        let g = this.groups.get(key);
        if (g === undefined) this.groups.set(key, (g = counts.push(0) - 1));
        counts[g]++;
      });
    }
    this.bounds = new Uint32Array(counts.length + 1);
    counts.forEach((n, g) => (this.bounds[g + 1] = this.bounds[g] + n));
    const next = this.bounds.slice(0, counts.length);
    this.wordEntry = new Uint32Array(this.bounds[counts.length]);
    this.wordAt = new Uint16Array(this.bounds[counts.length]);
    this.norms.forEach((norm, i) =>
      this.eachWordStart(norm, (key, at) => {
        const k = next[this.groups.get(key)!]++;
        this.wordEntry[k] = i;
        this.wordAt[k] = at;
      }),
    );
  }

  /** Suggestion rows for a normalized, non-empty prefix, best first (the SQL's order). */
  complete(prefix: string, limit: number): SuggestRow[] {
    const head: number[] = [];
    const [lo, hi] = this.range(prefix);
    for (let i = lo; i < hi; i++) this.keepBest(head, 2 * limit, i);
    const inner: number[] = [];
    // Matches inside the text need 3 characters: shorter ones match too much to help.
    const g = prefix.length >= 3 ? this.groups.get(prefix.slice(0, 3)) : undefined;
    if (g !== undefined) {
      for (let k = this.bounds[g]; k < this.bounds[g + 1]; k++) {
        const i = this.wordEntry[k];
        const norm = this.norms[i];
        if (norm.startsWith(prefix, this.wordAt[k]) && !norm.startsWith(prefix) && !inner.includes(i)) this.keepBest(inner, limit, i);
      }
    }
    return [...head, ...inner].slice(0, 2 * limit).map((i) => this.row(i));
  }

  /** Every entry of one kind (brands for the rule parser, categories for category intent), heaviest first. */
  entriesOf(kind: SuggestRow['kind']): SuggestRow[] {
    const k = KINDS.indexOf(kind);
    const out: SuggestRow[] = [];
    for (let i = 0; i < this.size; i++) if (this.kinds[i] === k) out.push(this.row(i));
    return out.sort((a, b) => b.weight - a.weight);
  }

  /** A category suggestion target's (`lvl:` key or category id) label in every language its entries have, each language's most used text. */
  categoryLabel(target: string): Record<string, string> | null {
    if (!this.categoryLabels) {
      const labels = new Map<string, Record<string, string>>();
      for (const r of this.entriesOf('category')) {
        if (!r.target) continue;
        const label = labels.get(r.target) ?? {};
        label[labelLang(r.display)] ??= r.display;
        labels.set(r.target, label);
      }
      this.categoryLabels = labels;
    }
    return this.categoryLabels.get(target) ?? null;
  }

  /** Category buckets of `rows` (in their order): one per target, labelled in every language, at most `limit`. */
  categoryBuckets(rows: SuggestRow[], limit: number): Array<{ value: string; label: Record<string, string>; count: number }> {
    const out: Array<{ value: string; label: Record<string, string>; count: number }> = [];
    const shown = new Set<string>();
    for (const r of rows) {
      if (r.kind !== 'category' || !r.target || shown.has(r.target)) continue;
      shown.add(r.target);
      out.push({ value: r.target, label: this.categoryLabel(r.target) ?? { [labelLang(r.display)]: r.display }, count: r.weight });
      if (out.length >= limit) break;
    }
    return out;
  }

  /** `make()`'s answer for `key`, made once while it stays among the last MEMO used. */
  memo<T>(key: string, make: () => T): T {
    const hit = this.answers.get(key) as T | undefined;
    if (hit !== undefined) {
      this.answers.delete(key);
      this.answers.set(key, hit);
      return hit;
    }
    const value = make();
    if (this.answers.size >= MEMO) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(key, value);
    return value;
  }

  private row(i: number): SuggestRow {
    return { kind: KINDS[this.kinds[i]], norm: this.norms[i], display: this.displays[i], target: this.targets[i], weight: this.weights[i] };
  }

  /** Inserts entry i into `best` (sorted, at most `max` long) when it ranks high enough. */
  private keepBest(best: number[], max: number, i: number): void {
    let at = best.length;
    while (at > 0 && this.ranksBefore(i, best[at - 1])) at--;
    if (at >= max) return;
    best.splice(at, 0, i);
    if (best.length > max) best.pop();
  }

  /** Heavier first; equal weights in text order, then kind order, so answers are stable. */
  private ranksBefore(a: number, b: number): boolean {
    const w = this.weights[a] - this.weights[b];
    if (w !== 0) return w > 0;
    const na = this.norms[a];
    const nb = this.norms[b];
    return na !== nb ? na < nb : this.kinds[a] < this.kinds[b];
  }

  /** [lo, hi) of the entries whose text starts with `prefix`. */
  private range(prefix: string): [number, number] {
    const bound = (upper: boolean) => {
      let lo = 0;
      let hi = this.norms.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const c = comparePrefix(this.norms[mid], prefix);
        if (c < 0 || (upper && c === 0)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return [bound(false), bound(true)];
  }

  /**
   * Calls `fn` with the first 3 characters and offset of each later word of `norm` that has 3, and of each word's
   * bare start after the Arabic article ("الاجهزه المنزليه" is found by "اجه" and "منز", as shoppers type it).
   */
  private eachWordStart(norm: string, fn: (key: string, at: number) => void): void {
    for (let at = 0; at >= 0 && at < 0x10000; at = norm.indexOf(' ', at) + 1 || -1) {
      const bare = articleEnd(norm, at);
      if (bare > at && bare + 3 <= norm.length && bare < 0x10000) fn(norm.slice(bare, bare + 3), bare);
      if (at > 0 && at + 3 <= norm.length) fn(norm.slice(at, at + 3), at);
    }
  }
}

/** Compares the first `prefix.length` characters of `s` with `prefix`, in code unit order (the sort's). */
function comparePrefix(s: string, prefix: string): number {
  for (let j = 0; j < prefix.length; j++) {
    const d = (j < s.length ? s.charCodeAt(j) : -1) - prefix.charCodeAt(j);
    if (d !== 0) return d;
  }
  return 0;
}

/** Where the word of `norm` starting at `at` begins without the Arabic article it opens with (`at` when it has none). */
export function articleEnd(norm: string, at: number): number {
  const end = norm.indexOf(' ', at);
  const word = norm.slice(at, end < 0 ? norm.length : end);
  const bare = withoutArticle(word);
  return bare ? at + word.length - bare.length : at;
}
