import type { QueryTerm } from '../engines/lexical/port.js';
import { normalizeText } from '../text/normalize.js';
import { withoutArticle } from '../text/stem.js';
import { escapeHtml } from './highlight.js';
import { articleEnd, type SuggestDictionary } from './suggest-dictionary.js';

// What suggest makes of the typed text: the prefixes it completes, the terms it previews, and each completion's marks.

/** One term per typed word; the last, when it opens with the Arabic article, also without it ("القمي" previews "قميص"). */
export function prefixTerms(tokens: string[]): QueryTerm[] {
  return tokens.map((t, i) => {
    const bare = i === tokens.length - 1 ? withoutArticle(t, 2) : null;
    return { alternatives: bare ? [[t], [bare]] : [[t]] };
  });
}

/**
 * The prefixes to complete: what was typed, then, when its last word opens with the Arabic article,
 * the same without it ("القمي": "قمي"), since the store's names and categories write the bare word.
 */
function typedForms(normalized: string): string[] {
  const at = normalized.lastIndexOf(' ') + 1;
  const bare = withoutArticle(normalized.slice(at), 2);
  return bare ? [normalized, normalized.slice(0, at) + bare] : [normalized];
}

/** Suggestions (deduplicated, at most `limit`) and category buckets for a normalized prefix. */
export function completions(dictionary: SuggestDictionary, normalized: string, limit: number) {
  const rows = typedForms(normalized).flatMap((typed) => dictionary.complete(typed, limit).map((r) => ({ ...r, typed })));
  const seen = new Set<string>();
  // A query that says what a brand or category suggestion says ("Samsung" and the brand Samsung) is shown once, as the brand or category.
  const named = new Set(rows.filter((r) => r.kind !== 'query').map((r) => r.norm));
  const suggestions = [];
  for (const r of rows) {
    const key = `${r.kind}:${r.norm}`;
    if (seen.has(key) || (r.kind === 'query' && named.has(r.norm))) continue;
    seen.add(key);
    suggestions.push({ text: r.display, highlighted: markPrefix(r.display, r.norm, r.typed), kind: r.kind, target: r.target });
    if (suggestions.length >= limit) break;
  }
  // Category buckets: the categories whose names start with what was typed, counted by their products.
  const categories = dictionary.categoryBuckets(rows, 5);
  return { suggestions, categories };
}

/**
 * Wraps the typed part in <em> where the dictionary matched it (the text's start, else a later word's) and the store's
 * text is escaped: only the marks are markup. The mark covers the display's own characters for the normalized ones
 * (tashkeel, tatweel and ligatures included: "مكيّف"), or there is none when they cannot be lined up.
 */
function markPrefix(display: string, norm: string, typed: string): string | null {
  const at = matchedAt(norm, typed);
  if (at < 0) return null;
  const span = displaySpan(display, norm, at, at + typed.length);
  if (!span) return null;
  const [from, to] = span;
  return `${escapeHtml(display.slice(0, from))}<em>${escapeHtml(display.slice(from, to))}</em>${escapeHtml(display.slice(to))}`;
}

/** Where the dictionary matched `typed` in `norm`: its start, a later word's, or a word's after the Arabic article; -1 for none. */
function matchedAt(norm: string, typed: string): number {
  if (norm.startsWith(typed)) return 0;
  const later = norm.indexOf(` ${typed}`);
  if (later >= 0) return later + 1;
  for (let at = 0; at >= 0; at = norm.indexOf(' ', at) + 1 || -1) {
    const bare = articleEnd(norm, at);
    if (bare > at && norm.startsWith(typed, bare)) return bare;
  }
  return -1;
}

/** Marks, format characters and tatweel: the characters normalization drops inside a word. */
const DROPPED_IN_WORD = /[\p{M}\p{Cf}\u0640]/u;

/**
 * The display's [from, to) that normalizes to norm's [start, end), or null when normalizeText(display) is not `norm`.
 * Plain text is its own normalized form; otherwise each end is found by normalizing the display's openings.
 */
function displaySpan(display: string, norm: string, start: number, end: number): [number, number] | null {
  if (display.length === norm.length && normalizeText(display) === norm) return [start, end];
  if (normalizeText(display) !== norm) return null;
  const lengthAt = (i: number) => normalizeText(display.slice(0, i)).length;
  let from = 0;
  while (from < display.length && lengthAt(from + 1) <= start) from++;
  let to = from;
  while (to < display.length && lengthAt(to) < end) to++;
  // A mark or tatweel after the last typed letter belongs to it ("مكيّ").
  while (to < display.length && DROPPED_IN_WORD.test(display[to])) to++;
  return [from, to];
}
