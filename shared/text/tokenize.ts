// Tokenization of already-normalized text (see normalizeText).
//
// Choice: a hyphen or dot *between* two alphanumeric runs stays inside the
// token, so model codes like "dv7-1211ea", "jbl-t450" or "1.5" survive as one
// token and can be matched exactly. Every other punctuation char and all
// whitespace split. Callers that also want the pieces ("jbl", "t450"), e.g. the
// indexer, use splitCompound / expandCompounds, so a query for either the
// full code or one of its parts can match.

// Letters, digits and combining marks (kept so scripts that need marks, like
// Devanagari, are not cut mid-word), joined by single in-word '-' or '.'.
export const TOKEN_RE = /[\p{L}\p{N}\p{M}]+(?:[-.][\p{L}\p{N}\p{M}]+)*/gu;
const JOINER_RE = /[-.]/;
const DECIMAL_RE = /^\p{Nd}+\.\p{Nd}+$/u;
const HAS_DIGIT_RE = /\p{Nd}/u;
const HAS_LETTER_RE = /\p{L}/u;
const NUMBER_RE = /^\p{Nd}+(?:[-.,/]\p{Nd}+)*$/u;

/** Split normalized text into letter/digit tokens, keeping in-word '-' and '.' (model codes). */
export function tokenize(normalized: string): string[] {
  return normalized.match(TOKEN_RE) ?? [];
}

/** Parts of a compound token ("jbl-t450" -> ["jbl", "t450"]); [token] when it has no parts. */
export function splitCompound(token: string): string[] {
  // A decimal like "1.5" is one quantity; splitting it would let "5" match "1.5 لتر".
  if (!JOINER_RE.test(token) || DECIMAL_RE.test(token)) return [token];
  return token.split(JOINER_RE).filter((part) => part.length > 0);
}

/** Tokens followed by the parts of each compound token, without duplicates (for indexing). */
export function expandCompounds(tokens: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (t: string) => {
    if (!seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  };
  for (const token of tokens) add(token);
  for (const token of tokens) {
    const parts = splitCompound(token);
    if (parts.length > 1) for (const part of parts) add(part);
  }
  return out;
}

/** True for numbers, SKUs, GTINs and model codes, where typo tolerance would only produce false matches. */
export function isCodeLike(token: string): boolean {
  if (!HAS_DIGIT_RE.test(token)) return false;
  return HAS_LETTER_RE.test(token) || NUMBER_RE.test(token) || token.length >= 6;
}
