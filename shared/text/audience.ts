// Whom a product is for, when a query names a gender: "mens running shoes" is not asking for
// women's running shoes, however well they match the other words. General language (English and
// Arabic audience words, as intent-words.ts lists them), no store's words.

import { normalizeText } from './normalize.js';

const SIDES: Record<'male' | 'female', string[]> = {
  male: ['men', 'mens', 'man', 'male', 'males', 'gentlemen', 'boys', 'boy', 'رجالي', 'رجال', 'للرجال', 'ولادي', 'أولاد', 'اولاد'],
  female: ['women', 'womens', 'woman', 'ladies', 'lady', 'female', 'females', 'girls', 'girl', 'نسائي', 'نسائية', 'نساء', 'للنساء', 'حريمي', 'بناتي', 'بنات'],
};
const SIDE = new Map<string, 'male' | 'female'>();
for (const [side, words] of Object.entries(SIDES) as Array<['male' | 'female', string[]]>) for (const w of words) SIDE.set(normalizeText(w), side);
/** Each side's words as queries are normalized, and the other side's: made once (the search path only reads them). */
const AUDIENCES = {
  male: { own: SIDES.male.map((w) => normalizeText(w)), other: SIDES.female.map((w) => normalizeText(w)) },
  female: { own: SIDES.female.map((w) => normalizeText(w)), other: SIDES.male.map((w) => normalizeText(w)) },
};

/** The words of a query's audience (`own`) and of the other gender (`other`), when the query names one gender only; else null. */
export function queryAudience(tokens: readonly string[]): { own: string[]; other: string[] } | null {
  let side: 'male' | 'female' | undefined;
  for (const t of tokens) {
    const s = SIDE.get(t);
    if (!s) continue;
    if (side && side !== s) return null;
    side = s;
  }
  return side ? AUDIENCES[side] : null;
}
