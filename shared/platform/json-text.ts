/**
 * JSON text limits checked before `JSON.parse`. Parsing itself copes with any depth, but every
 * recursive walk after it (canonical JSON for idempotency hashes, validation, the text check)
 * would overflow the stack on a 10 KB body of 5,000 nested brackets: refuse it on the raw text.
 */
export const MAX_JSON_DEPTH = 64;

/** Offset of the bracket that takes nesting past `limit`, or -1. Strings are skipped whole (indexOf), so a product body scans fast. */
export function jsonTooDeepAt(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = closingQuote(text, i + 1);
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/** Index of the quote that ends the string starting at `start` (one preceded by an even run of backslashes). */
function closingQuote(text: string, start: number): number {
  let from = start;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let slashes = 0;
    for (let b = q - 1; b >= start && text.charCodeAt(b) === 0x5c; b--) slashes++;
    if (slashes % 2 === 0) return q;
    from = q + 1;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, or null when its bytes are not UTF-8 (a lossy decode would change the client's text silently). */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}
