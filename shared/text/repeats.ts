const WORD = /[\p{L}\p{N}]+/gu;

/**
 * `text` with each word kept at its first `max` occurrences only (later ones removed, the rest of
 * the text untouched). Full-text rank counts every occurrence of a word, so a spec list that says
 * one word again and again ("Gmail, Google Calendar, Google Chrome, Google Maps, Google Play ...")
 * would outrank a product whose own text is about the word: BM25's term-frequency saturation,
 * done at index time.
 */
export function capRepeats(text: string, max: number): string {
  if (!text) return text;
  const seen = new Map<string, number>();
  let capped = false;
  const out = text.replace(WORD, (w) => {
    const n = (seen.get(w) ?? 0) + 1;
    seen.set(w, n);
    if (n <= max) return w;
    capped = true;
    return '';
  });
  return capped ? out : text;
}
