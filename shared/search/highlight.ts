import { normalizeText } from '../text/normalize.js';
import { stem } from '../text/stem.js';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}._-]*/gu;
const SPECIAL = /[&<>"]/;

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
  return (text) => {
    if (!text || !wanted.size) return null;
    let out = '';
    let from = 0;
    WORD.lastIndex = 0;
    for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
      const word = m[0];
      const norm = plainAscii(word) ? word.toLowerCase() : normalizeText(word);
      if (!(wanted.has(norm) || wanted.has(stem(norm)) || (byPrefix !== null && norm.startsWith(byPrefix)))) continue;
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
