import { normalizeText } from '../text/normalize.js';
import { stem } from '../text/stem.js';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}._-]*/gu;

/**
 * Marks the words of `text` that match the query (same normalized form, same stem, or a
 * prefix of the last query word) with <em>...</em>; null when nothing matched.
 */
export function highlight(text: string, queryTokens: string[], prefix: string | null): string | null {
  if (!text || !queryTokens.length) return null;
  const wanted = new Set<string>();
  for (const t of queryTokens) {
    wanted.add(t);
    wanted.add(stem(t));
  }
  let hit = false;
  const out = text.replace(WORD, (word) => {
    const norm = normalizeText(word);
    if (wanted.has(norm) || wanted.has(stem(norm)) || (prefix !== null && prefix.length >= 2 && norm.startsWith(prefix))) {
      hit = true;
      return `<em>${escapeHtml(word)}</em>`;
    }
    return escapeHtml(word);
  });
  return hit ? escapeOutside(out) : null;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** Escapes the text between words (already-escaped words and <em> tags are kept). */
function escapeOutside(s: string): string {
  return s.replace(/(<\/?em>)|([&<>"])/g, (m, tag: string | undefined) => tag ?? escapeHtml(m));
}
