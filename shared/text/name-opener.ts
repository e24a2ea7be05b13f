// A name's words counted once in its indexed text. Pure.
//
// Marketplace and spec-sheet titles open with the maker ("Crocs Cleo Womens Sandals", "HP ProCurve
// 2524 Switch"). Marketplace listings often glue the brand field in front of a title that already
// names it ("Crocs Black Crocs Work Clog", "SodaStream SodaStream Diet Soda Mix") or close with it
// ("Wii - Mario Kart Wii"): a second mention says nothing more about the product, yet it doubled the
// name's term frequency, so such listings outranked the maker's other products for the maker's name.
// Arabic titles open with the product type, not the maker: left as they are. No word list.
//
// The same holds across fields indexed with the name: a brand field and a model name that repeat
// the title ("Canon" + "Macrolite Adapter 58C" beside "Canon Macrolite adapter 58C camera lens
// adapter") doubled the name's words for the products whose model is written out, not for those
// whose model is a code. They add the words the name lacks (a brand or code the title leaves out).

import { expandCompounds, isArabic, isCodeLike, tokenize } from './normalize.js';
import { TOKEN_RE } from './tokenize.js';
import { stem } from './stem.js';

/** `text` with every token equal to `word` after its first occurrence left out (spaces tidied). */
function keepFirst(text: string, word: string): string {
  let seen = false;
  const out = text.replace(TOKEN_RE, (token) => {
    if (token !== word) return token;
    if (!seen) return ((seen = true), token);
    return ' ';
  });
  return out === text ? text : out.replace(/\s+/g, ' ').trim();
}

/**
 * A normalized name and its stemmed text (SearchDoc.nameNorm, nameStem) with the later mentions of
 * the name's first word left out, for the text vector only (the name itself is kept as it is).
 * Unchanged when the first word is shorter than 2 characters, Arabic, or not repeated.
 */
export function openerOnce(nameNorm: string, nameStem: string): { name: string; stem: string } {
  const opener = tokenize(nameNorm)[0];
  if (!opener || opener.length < 2 || isArabic(opener)) return { name: nameNorm, stem: nameStem };
  // The stemmed text leaves codes out (search-doc.ts): a code-like opener has no stem there.
  return { name: keepFirst(nameNorm, opener), stem: isCodeLike(opener) ? nameStem : keepFirst(nameStem, stem(opener)) };
}

/**
 * The texts indexed beside a normalized name (brand, model and other codes), with the tokens the
 * name already has left out: they count once, in the name. Empty texts dropped.
 */
export function beyondName(nameNorm: string, texts: Array<string | null | undefined>): string[] {
  const named = new Set(expandCompounds(tokenize(nameNorm)));
  return texts
    .map((text) =>
      (text ?? '')
        .replace(TOKEN_RE, (token) => (named.has(token) ? ' ' : token))
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((text) => /[\p{L}\p{N}]/u.test(text));
}
