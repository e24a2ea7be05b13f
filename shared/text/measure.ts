// Measures in text: a number and a unit name ("32 gb", "500 ml"), written apart or glued ("32GB").
// Stores write both ("SanDisk - flash memory card - 16 GB" beside "SanDisk Ultra 16GB MicroSD"), and
// so do shoppers; the tokenizer keeps a glued measure as one word. The unit names are the
// general-language list of product-head.ts.

import { isUnitName } from './product-head.js';

/** A number as the tokenizer keeps it: "32", "2.5", "1,5". */
export const NUMBER = /^\d+(?:[.,]\d+)?$/;
const GLUED = /^(\d+(?:[.,]\d+)?)(\p{L}+)$/u;
/** Size letters and "x" are in the unit list (no product head) but measure nothing: "iphone 5s", "2x". */
const NOT_MEASURES = new Set(['s', 'xs', 'xl', 'xxl', 'x']);
const isMeasureUnit = (word: string) => isUnitName(word) && !NOT_MEASURES.has(word);

/** Whether two words are a measure written apart: a number, then a unit name ("32", "gb"). */
export function isMeasurePair(number: string, unit: string): boolean {
  return NUMBER.test(number) && isMeasureUnit(unit);
}

/** A measure written as one word ("16gb" -> ["16", "gb"]), or null (a model code such as "5s" or "rtx2060" is none). */
export function gluedMeasure(word: string): [string, string] | null {
  const m = GLUED.exec(word);
  return m && isMeasureUnit(m[2]) ? [m[1], m[2]] : null;
}

/** Whether the words are one measure: a number and its unit, apart or glued. */
export function isMeasure(words: readonly string[]): boolean {
  if (words.length === 2) return isMeasurePair(words[0], words[1]);
  return words.length === 1 && gluedMeasure(words[0]) !== null;
}
