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

/** The words of a query's audience (`own`) and of the other gender (`other`), when the query names one gender only; else null. */
export function queryAudience(tokens: readonly string[]): { own: string[]; other: string[] } | null {
  const sides = new Set(tokens.map((t) => SIDE.get(t)).filter((s) => s !== undefined));
  if (sides.size !== 1) return null;
  const own = [...sides][0];
  const words = (side: 'male' | 'female') => SIDES[side].map((w) => normalizeText(w));
  return { own: words(own), other: words(own === 'male' ? 'female' : 'male') };
}
