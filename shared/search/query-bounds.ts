/**
 * Bounds on the work one query may ask for (issue 12: 128 one-letter words in `q`, within the
 * 256-character limit, cost 1-3 s of Postgres time per search and seconds more at concurrency 4).
 * The engine query's cost grows with its terms (one rank per term per matching row, and the
 * any-word fallback matches most of the catalog when the words are common), so terms are capped
 * before the plan is made. Shopper queries do not come near these: the longest of the dev
 * judgments' 200 queries has 6 words, none repeats one (so `npm run eval` is unchanged).
 */

/** Distinct words of a query the engine is asked about; later ones are dropped (the debug trace says so). */
export const MAX_QUERY_WORDS = 16;
/** Synonym alternatives per word or phrase, the shopper's own words included. */
export const MAX_ALTERNATIVES = 8;
/** Terms the any-word fallback ORs together: its rarest ones (by catalog frequency), so common words cannot make it match the whole catalog. */
export const MAX_FALLBACK_TERMS = 8;

/**
 * The query's words, each once, in order, at most MAX_QUERY_WORDS; and how many were dropped.
 * `keepLast` (as-you-type) keeps the last word, the one being typed, in the last place.
 */
export function boundWords(tokens: string[], opts: { keepLast?: boolean } = {}): { words: string[]; dropped: number } {
  const last = tokens[tokens.length - 1];
  let words = [...new Set(tokens)];
  if (opts.keepLast && words.length > 1 && (words.length > MAX_QUERY_WORDS || words[words.length - 1] !== last)) {
    words = [...words.filter((w) => w !== last).slice(0, MAX_QUERY_WORDS - 1), last];
  }
  words = words.slice(0, MAX_QUERY_WORDS);
  return { words, dropped: tokens.length - words.length };
}
