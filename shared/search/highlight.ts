import { normalizeText, splitCompound } from '../text/normalize.js';
import { stem, withoutArticle } from '../text/stem.js';

// A word as tokenize() reads one: letters, digits and marks, joined by single '-' or '.' between them (the Arabic
// decimal separator too: "٣٫٥" is 3.5), so "dress." at a sentence's end is "dress"; with the invisible format
// characters normalization drops (ZWNJ, bidi marks), which must not cut a word the index holds whole.
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}\p{Cf}]*(?:[-.\u066b][\p{L}\p{N}\p{M}\p{Cf}]+)*/gu;
const SPECIAL = /[&<>"]/;
const JOINED = /[-.]/;

/**
 * A function that marks the words of a text matching the query (same normalized form, same stem,
 * or a prefix of at least two letters) with <em>...</em>, everything else escaped; null when
 * nothing matched. Made once per search and used for every hit's name and description.
 *
 * A word never holds &<>", so the text between marked words is escaped in stretches; a plain ASCII
 * word is lower-cased instead of normalized; nothing is built until a word matches. Tags the text
 * holds itself are escaped like the rest of it: only the marks are markup.
 */
export function highlighter(queryTokens: string[], prefix: string | null): (text: string) => string | null {
  const wanted = new Set<string>();
  for (const t of queryTokens) {
    wanted.add(t);
    wanted.add(stem(t));
  }
  const byPrefix = prefix !== null && prefix.length >= 2 ? prefix : null;
  // "القمي" marks "قميص" too: the article typed onto a word the text writes bare (as search matches it).
  const bare = byPrefix !== null ? withoutArticle(byPrefix, 2) : null;
  const matches = (norm: string) => wanted.has(norm) || wanted.has(stem(norm));
  return (text) => {
    if (!text || !wanted.size) return null;
    let out = '';
    let from = 0;
    WORD.lastIndex = 0;
    for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
      const word = m[0];
      const norm = plainAscii(word) ? word.toLowerCase() : normalizeText(word);
      const prefixed = byPrefix !== null && (norm.startsWith(byPrefix) || (bare !== null && norm.startsWith(bare)));
      // A code's parts match as the index's do: "jbl" marks "JBL-T450".
      if (!(matches(norm) || prefixed || (JOINED.test(norm) && splitCompound(norm).some(matches)))) continue;
      out += `${escapeHtml(text.slice(from, m.index))}<em>${word}</em>`;
      from = m.index + word.length;
    }
    return from === 0 ? null : out + escapeHtml(text.slice(from));
  };
}

/** One text marked for the query (see highlighter). */
export function highlight(text: string, queryTokens: string[], prefix: string | null): string | null {
  return highlighter(queryTokens, prefix)(text);
}

/** Only ASCII letters and digits: normalizeText of it is its lower case. */
function plainAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39))) return false;
  }
  return true;
}

/** `s` with &<>" escaped (returned as is when it holds none). */
export function escapeHtml(s: string): string {
  if (!SPECIAL.test(s)) return s;
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
