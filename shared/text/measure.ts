// Measures in text: a number and a unit name ("32 gb", "500 ml"), written apart or glued ("32GB").
// Stores write both ("SanDisk - flash memory card - 16 GB" beside "SanDisk Ultra 16GB MicroSD"), and
// so do shoppers; the tokenizer keeps a glued measure as one word. The unit names are the
// general-language list of product-head.ts.

import { isUnitName } from './product-head.js';

/** A number as the tokenizer keeps it: "32", "2.5", "1,5". */
const NUMBER = /^\d+(?:[.,]\d+)?$/;
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

/** Units of one quantity and their size in its smallest unit (general language: metric volume, mass, length, data). */
const SIZES = new Map<string, { of: string; size: number }>();
for (const [of, units] of Object.entries({
  volume: { ml: 1, l: 1000, ltr: 1000, litre: 1000, litres: 1000, liter: 1000, liters: 1000 },
  mass: { mg: 0.001, g: 1, gm: 1, gr: 1, gram: 1, grams: 1, kg: 1000 },
  length: { mm: 1, cm: 10, m: 1000, meter: 1000, meters: 1000, metre: 1000, metres: 1000, km: 1_000_000 },
  data: { kb: 1, mb: 1000, gb: 1_000_000, tb: 1_000_000_000 },
})) {
  for (const [unit, size] of Object.entries(units)) SIZES.set(unit, { of, size });
}

/**
 * The same measure in the other units of its quantity, as a store may write it ("1 litre": 1000 ml,
 * 1 l, 1 ltr; "0.5 kg": 500 g), each a number and a unit; a number with more than two decimals or
 * past the safe integers is left out ("1 ml" is no "0.001 l"). Empty for a unit of no known quantity.
 */
export function equivalentMeasures(number: string, unit: string): Array<[string, string]> {
  const from = SIZES.get(unit);
  const value = Number(number.replace(',', '.'));
  if (!from || !Number.isFinite(value)) return [];
  const out: Array<[string, string]> = [];
  for (const [other, to] of SIZES) {
    if (to.of !== from.of || other === unit) continue;
    const n = (value * from.size) / to.size;
    const rounded = Math.round(n * 100) / 100;
    // Past safe integers a number prints in exponent form ("1e+29"), which no store writes.
    if (n > 0 && n <= Number.MAX_SAFE_INTEGER && Math.abs(rounded - n) < 1e-9) out.push([String(rounded), other]);
  }
  return out;
}
