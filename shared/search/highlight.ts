import { normalizeText } from '../text/normalize.js';
import { stem } from '../text/stem.js';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}._-]*/gu;
const SPECIAL = /[&<>"]/;

/**
 * Marks the words of `text` that match the query (same normalized form, same stem, or a
 * prefix of the last query word) with <em>...</em>; null when nothing matched.
 *
 * Runs for the name and description of every hit of every uncached search: the text between
 * marked words is escaped in stretches (a word never holds &<>"), a plain ASCII word is
 * lower-cased instead of normalized, and nothing is built until a word matches.
 */
export function highlight(text: string, queryTokens: string[], prefix: string | null): string | null {
  if (!text || !queryTokens.length) return null;
  // A text that holds an em tag itself keeps the one-pass form, which leaves such tags as they are.
  if (text.includes('em>')) return highlightWhole(text, queryTokens, prefix);
  const wanted = wantedForms(queryTokens);
  const byPrefix = prefix !== null && prefix.length >= 2 ? prefix : null;
  let out = '';
  let from = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
    const word = m[0];
    if (!matches(word, wanted, byPrefix)) continue;
    out += `${escapeHtml(text.slice(from, m.index))}<em>${word}</em>`;
    from = m.index + word.length;
  }
  return from === 0 ? null : out + escapeHtml(text.slice(from));
}

function wantedForms(queryTokens: string[]): Set<string> {
  const wanted = new Set<string>();
  for (const t of queryTokens) {
    wanted.add(t);
    wanted.add(stem(t));
  }
  return wanted;
}

function matches(word: string, wanted: Set<string>, prefix: string | null): boolean {
  const norm = plainAscii(word) ? word.toLowerCase() : normalizeText(word);
  return wanted.has(norm) || wanted.has(stem(norm)) || (prefix !== null && norm.startsWith(prefix));
}

/** Only ASCII letters and digits: normalizeText of it is its lower case. */
function plainAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39))) return false;
  }
  return true;
}

/** The one-pass form: every word replaced, then the text between them escaped (em tags kept). */
function highlightWhole(text: string, queryTokens: string[], prefix: string | null): string | null {
  const wanted = wantedForms(queryTokens);
  const byPrefix = prefix !== null && prefix.length >= 2 ? prefix : null;
  let hit = false;
  const out = text.replace(WORD, (word) => {
    if (!matches(word, wanted, byPrefix)) return word;
    hit = true;
    return `<em>${word}</em>`;
  });
  return hit ? escapeOutside(out) : null;
}

function escapeHtml(s: string): string {
  if (!SPECIAL.test(s)) return s;
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** Escapes the text between words (em tags are kept). */
function escapeOutside(s: string): string {
  return s.replace(/(<\/?em>)|([&<>"])/g, (m, tag: string | undefined) => tag ?? escapeHtml(m));
}
