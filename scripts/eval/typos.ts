/**
 * `npm run eval -- --typos`: each judged query asked again with one typing error in its longest
 * word of at least 5 letters (as a shopper on a phone makes them: two letters swapped, one left
 * out, one doubled, one struck on the key beside it), the same judgments scoring it. Deterministic:
 * the error's kind and place come from a hash of the query, so runs and peers see the same text.
 * Queries without such a word are asked as typed.
 */

/** The keyboard's letter rows: a letter's neighbours are the keys beside it (struck instead of it). */
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const neighbours = (letter: string): string => {
  const row = ROWS.find((r) => r.includes(letter));
  if (!row) return '';
  const i = row.indexOf(letter);
  return (row[i - 1] ?? '') + (row[i + 1] ?? '');
};

/** FNV-1a over the text: a stable choice per query. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** One typing error inside `word` (never its first letter, which shoppers rarely get wrong), chosen by `h`. */
export function typo(word: string, h: number): string {
  const at = 1 + (h % (word.length - 2)); // 1 .. length - 2: an inner letter
  switch ((h >>> 8) % 4) {
    case 0:
      return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2); // swapped with the next
    case 1:
      return word.slice(0, at) + word.slice(at + 1); // left out
    case 2:
      return word.slice(0, at + 1) + word.slice(at); // doubled
    default: {
      const keys = neighbours(word[at]);
      return keys ? word.slice(0, at) + keys[(h >>> 16) % keys.length] + word.slice(at + 1) : word.slice(0, at) + word.slice(at + 1);
    }
  }
}

/** The query with one typing error in its longest word of 5+ letters (the first of equals), or as typed. */
export function misspell(query: string): string {
  const words = query.split(' ');
  let pick = -1;
  words.forEach((w, i) => {
    if (/^[a-z]{5,}$/.test(w) && (pick < 0 || w.length > words[pick].length)) pick = i;
  });
  if (pick < 0) return query;
  words[pick] = typo(words[pick], hash(query));
  return words.join(' ');
}
