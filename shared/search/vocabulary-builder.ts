import { normalizeText, tokenize, isCodeLike } from '../text/normalize.js';
import type { StoredProduct } from '../catalog/index.js';
import { categoryLevelKey } from '../engines/lexical/port.js';
import { productHeads } from '../text/product-head.js';
import { pathLabels } from '../text/category-label.js';
import { SpellingVariants } from './spelling-variants.js';

/** Words of a name as the engine counts them: spaces of its normalized text, plus one. */
export function nameWordCount(name: string): number {
  const norm = normalizeText(name);
  return norm ? norm.split(' ').length : 0;
}

/** A description word is a correction source from this many products' descriptions on: a word in one description may be its own typo. */
export const DESCRIBED_MIN_PRODUCTS = 2;
/** The most frequent description-only words kept per store (bounds the typo index every API process holds per store). */
export const DESCRIBED_LIMIT = 10_000;
/** Shorter words are never reached: a correction needs a word of 4 characters, one edit away (typoBudget). */
const DESCRIBED_MIN_LENGTH = 3;
/** Numbers and codes are matched exactly, never corrected (query-plan.ts). */
const HAS_DIGIT = /\p{N}/u;

export interface SuggestTerm {
  kind: 'query' | 'brand' | 'category';
  norm: string;
  display: string;
  target: string | null;
  weight: number;
}

/**
 * Collects a tenant's vocabulary (terms of names, brands, categories and attribute values,
 * with document frequency; description words apart: describedTerms) and its suggestion dictionary (brands, category levels, name
 * openings such as "samsung galaxy"), one product at a time.
 */
export class VocabularyBuilder {
  readonly terms = new Map<string, number>();
  /** The store's product types: each head noun (shared/text/product-head.ts) with how many products it is the head of. */
  readonly heads = new Map<string, number>();
  /** Each word with how many product names open with it (their first word: a brand in marketplace titles). */
  readonly openings = new Map<string, number>();
  /** The store's spelling variants, learned from its names (SpellingVariants.variants). */
  readonly spelling = new SpellingVariants();
  /** Each word of the products' descriptions with how many descriptions have it (describedTerms keeps the ones no other field has). */
  private descriptionWords = new Map<string, number>();
  /** Products added. */
  products = 0;
  /** Words of the products' names, summed (the store's title length: Vocabulary.nameWords). */
  nameWords = 0;
  private suggestions = new Map<string, SuggestTerm>();

  add(p: StoredProduct): void {
    this.products++;
    this.nameWords += nameWordCount(Object.values(p.name).join(' '));
    const seen = new Set<string>();
    const texts = [...Object.values(p.name), (p.brand as string) ?? ''];
    for (const c of (p.categories as Array<{ path: Array<Record<string, string>> }> | undefined) ?? []) {
      texts.push(...pathLabels(c.path));
    }
    for (const v of Object.values((p.attributes as Record<string, unknown>) ?? {})) {
      if (typeof v === 'string') texts.push(v);
      else if (Array.isArray(v)) texts.push(...v.map(String));
    }
    for (const text of texts) {
      for (const token of tokenize(normalizeText(text))) {
        if (token.length < 2 || seen.has(token)) continue;
        seen.add(token);
        this.terms.set(token, (this.terms.get(token) ?? 0) + 1);
      }
    }
    this.addDescription(p.description as Record<string, string> | undefined);
    const nameTokens = Object.values(p.name).map((n) => tokenize(normalizeText(n)));
    for (const tokens of nameTokens) this.spelling.addName(tokens);
    const openers = new Set(nameTokens.map((tokens) => tokens[0]));
    for (const w of openers) if (w && w.length >= 2) this.openings.set(w, (this.openings.get(w) ?? 0) + 1);
    const heads = new Set(Object.values(p.name).flatMap(productHeads));
    for (const h of heads) this.heads.set(h, (this.heads.get(h) ?? 0) + 1);
    if (typeof p.brand === 'string' && p.brand.trim()) this.suggest('brand', p.brand, p.brand);
    for (const c of (p.categories as Array<{ id: string; path: Array<Record<string, string>> }> | undefined) ?? []) {
      const labels = c.path.map((l) => l.en ?? Object.values(l)[0] ?? '');
      c.path.forEach((level, i) => {
        const target = i === c.path.length - 1 ? c.id : `lvl:${categoryLevelKey(labels.slice(0, i + 1))}`;
        for (const label of Object.values(level)) this.suggest('category', label, target);
      });
    }
    for (const name of Object.values(p.name)) {
      const words = name.split(/\s+/).filter(Boolean);
      for (let n = 1; n <= Math.min(3, words.length); n++) {
        const phrase = words.slice(0, n).join(' ');
        if (n === 1 && isCodeLike(normalizeText(phrase))) continue;
        // Punctuation closing the opening is the sentence's, not the name's: "عباية،" is shown "عباية".
        this.suggest('query', phrase.replace(/[,;:()،؛]+$/, ''), null);
      }
    }
  }

  /**
   * The store's description-only words, a last-resort typo correction source (Vocabulary.descriptionCorrection):
   * those in at least `min` products' descriptions and in no name, brand, category or attribute value,
   * the `limit` most frequent, with how many descriptions have them.
   */
  describedTerms(limit = DESCRIBED_LIMIT, min = DESCRIBED_MIN_PRODUCTS): Map<string, number> {
    const kept: Array<[string, number]> = [];
    for (const [word, n] of this.descriptionWords) if (n >= min && !this.terms.has(word)) kept.push([word, n]);
    kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return new Map(kept.length > limit ? kept.slice(0, limit) : kept);
  }

  private addDescription(description: Record<string, string> | undefined): void {
    if (!description) return;
    const seen = new Set<string>();
    for (const text of Object.values(description)) {
      for (const token of tokenize(normalizeText(text))) {
        if (token.length < DESCRIBED_MIN_LENGTH || seen.has(token) || HAS_DIGIT.test(token)) continue;
        seen.add(token);
        this.descriptionWords.set(token, (this.descriptionWords.get(token) ?? 0) + 1);
      }
    }
  }

  private suggest(kind: SuggestTerm['kind'], display: string, target: string | null): void {
    const norm = normalizeText(display);
    if (norm.length < 2) return;
    const key = `${kind}\u0000${norm}`;
    const entry = this.suggestions.get(key);
    if (entry) entry.weight++;
    else this.suggestions.set(key, { kind, norm, display: display.trim(), target, weight: 1 });
  }

  /** Suggestions worth keeping: every brand and category, name openings seen at least twice. */
  suggestTerms(limit = 50_000): SuggestTerm[] {
    return [...this.suggestions.values()]
      .filter((s) => s.kind !== 'query' || s.weight >= 2)
      .sort((a, b) => b.weight - a.weight)
      .slice(0, limit);
  }
}
