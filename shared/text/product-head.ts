// The product type of a title: its head noun. Pure; both indexing (each product's head) and the
// vocabulary (each store's product types) call the same function.
//
// Title styles met in stores (learned per title, no store or catalog list):
// - marketplace English puts the type last, before what qualifies it: "Blendtec 64 oz. Blender Jar"
//   (a jar), "Oster 14-Speed Blender - Black" (a blender), "Case for iPhone 6" (a case);
// - spec-sheet titles (Icecat style) write the type in lower case after the capitalised brand and
//   series, then the specs: "Kensington ClickSafe Laptop Lock cable lock Black 1.8 m" (a lock);
// - Arabic puts the head noun first: "هاتف ذكي سامسونج" (a phone).
//
// The word lists below are general language only: prepositions and separators that end the part
// of a title naming the product, unit names and colour names that trail it. None exists for a store.

import { isArabic, isCodeLike, normalizeText, tokenize } from './normalize.js';
import { stem } from './stem.js';
import { intentOf, isIntentWord } from './intent-words.js';

/** What ends the part of a title that names the product ("for X", "with X", " - Black", ", 6 Bottle", "(Pack of 25)"). */
const QUALIFIER =
  /\s(?:for|with|w\/|w|by|from|featuring|fits|compatible with|includes|including|in(?!\.)(?<!\d\sin))\s|\s[-–—|+&]\s|[,;(\[|]|\s\/\s|متوافق مع|مناسب ل|\sمع\s|\sل\s/iu;

/** Unit names (general language): a title's trailing measures are not what the product is. */
const UNITS = new Set([
  'oz',
  'ounce',
  'ounces',
  'fl',
  'lb',
  'lbs',
  'pound',
  'pounds',
  'g',
  'gr',
  'gram',
  'grams',
  'kg',
  'mg',
  'ml',
  'l',
  'liter',
  'liters',
  'litre',
  'litres',
  'gallon',
  'gallons',
  'qt',
  'quart',
  'quarts',
  'pt',
  'pint',
  'cup',
  'cups',
  'in',
  'inch',
  'inches',
  'ft',
  'feet',
  'foot',
  'yd',
  'yard',
  'yards',
  'mm',
  'cm',
  'm',
  'meter',
  'meters',
  'metre',
  'metres',
  'km',
  'mi',
  'mile',
  'miles',
  'gb',
  'tb',
  'mb',
  'kb',
  'w',
  'watt',
  'watts',
  'v',
  'volt',
  'volts',
  'mah',
  'hz',
  'cu',
  'khz',
  'mhz',
  'ghz',
  'dpi',
  'ppm',
  'rpm',
  'pixels',
  'px',
  'mp',
  'pc',
  'pcs',
  'piece',
  'pieces',
  'pack',
  'packs',
  'pk',
  'count',
  'ct',
  'set',
  'pair',
  'pairs',
  'x',
  'xl',
  'xxl',
  'xs',
  's',
  'sq',
  'ea',
  'each',
  'size',
  'sizes',
  'yr',
  'yrs',
  'year',
  'years',
  'month',
  'months',
  'hour',
  'hours',
  'min',
  'sec',
  'سم',
  'مم',
  'متر',
  'كغ',
  'كجم',
  'جم',
  'غرام',
  'مل',
  'لتر',
  'قطعة',
  'قطع',
  'حبة',
  'انش',
  'بوصة',
  'واط',
  'فولت',
  'جيجا',
  'جيجابايت',
  'تيرا',
]);

/** Colour names (general language): "Sterling Silver Necklace Black" is a necklace. */
const COLOURS = new Set([
  'black',
  'white',
  'red',
  'blue',
  'green',
  'yellow',
  'orange',
  'purple',
  'pink',
  'brown',
  'grey',
  'gray',
  'silver',
  'gold',
  'beige',
  'navy',
  'clear',
  'transparent',
  'multicolor',
  'multicolour',
  'multi',
  'ivory',
  'cream',
  'tan',
  'teal',
  'aqua',
  'turquoise',
  'violet',
  'maroon',
  'khaki',
  'bronze',
  'cyan',
  'magenta',
  'metallic',
  'assorted',
  'natural',
  'charcoal',
  'copper',
  'chrome',
  'rose',
  'champagne',
  'burgundy',
  'olive',
  'mint',
  'coral',
  'lavender',
  'اسود',
  'ابيض',
  'احمر',
  'ازرق',
  'اخضر',
  'اصفر',
  'برتقالي',
  'بنفسجي',
  'وردي',
  'بني',
  'رمادي',
  'فضي',
  'ذهبي',
  'بيج',
  'كحلي',
]);

/** Words that never name a product type (general language: articles, conjunctions, a few function words, size names). */
const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'to',
  'only',
  'plus',
  'small',
  'medium',
  'large',
  'regular',
  'petite',
  'mini',
  'extra',
  'و',
  'او',
  'ال',
]);

const LETTERS = /^\p{L}[\p{L}'’-]*$/u;

/** Words of a raw title part as written (case kept), split at spaces and slashes. */
function rawWords(part: string): string[] {
  // Two capitalised words joined by a hyphen: the second qualifies the first ("Marbles 1 Pound-Pink",
  // "Dress-Mossimo", "Wall-Mount"); "T-Shirt" is one word.
  return part
    .split(/[\s/]+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .map((w) => /^(\p{Lu}\p{L}{2,})-\p{Lu}\p{L}{2,}$/u.exec(w)?.[1] ?? w)
    .filter(Boolean);
}

/** A raw word that can be a head: letters only, not a unit, colour or function word. */
function candidate(raw: string): string | null {
  // Words recur across titles: each is judged once (bounded; pure, so held results never go stale).
  const held = CANDIDATES.get(raw);
  if (held !== undefined) return held;
  if (CANDIDATES.size >= MAX_CANDIDATES) CANDIDATES.clear();
  const judged = judge(raw);
  CANDIDATES.set(raw, judged);
  return judged;
}

const CANDIDATES = new Map<string, string | null>();
const MAX_CANDIDATES = 50_000;

function judge(raw: string): string | null {
  const norm = judgeWord(raw);
  return norm && !isIntentWord(norm) ? norm : null;
}

/** A raw word normalized when it could be a head by its letters (judge, intent words aside), else null. */
function judgeWord(raw: string): string | null {
  if (!LETTERS.test(raw)) return null;
  // "Women's" -> women: a possessive's "s" is no part of the word.
  const norm = tokenize(normalizeText(raw))
    .filter((t, i) => i === 0 || t !== 's')
    .join('-');
  if (!norm || norm.length < 2 || isCodeLike(norm) || UNITS.has(norm) || COLOURS.has(norm) || FUNCTION_WORDS.has(norm)) return null;
  return norm;
}

const startsLower = (w: string) => /^\p{Ll}/u.test(w);

/** Whether a (normalized) word is a unit name of the general-language list above ("gb", "ml", "inch", "pack"). */
export function isUnitName(word: string): boolean {
  return UNITS.has(word);
}

/** The part of a title that names the product and its raw words (rawWords). */
function naming(title: string): { part: string; words: string[] } {
  let label: { part: string; words: string[] } | null = null;
  for (const p of title.split(QUALIFIER)) {
    const part = p?.trim() ?? '';
    if (!part) continue;
    const words = rawWords(part);
    if (!words.some((w) => candidate(w))) continue;
    if (!label && brandLabel(title, part, words)) {
      label = { part, words };
      continue;
    }
    return { part, words };
  }
  return label ?? { part: '', words: [] };
}

/**
 * Whether a title's naming part is a maker's label ("Scotch - Shoe Tape Dispenser", "SanDisk -
 * flash memory card", "Plantronics S12 - headset", "Brand & Co ...", "Brand by ...", "Brand (...)"):
 * the title's opening part, its only word that can be a head is its first (the rest codes and
 * numbers), and a label's end follows it (LABEL_END). The product is named after it; the label is
 * the head only when nothing after it can be one.
 */
function brandLabel(title: string, part: string, words: string[]): boolean {
  const start = title.trimStart();
  if (!start.startsWith(part) || !LABEL_END.test(start.slice(part.length))) return false;
  if (isArabic(part) || !candidate(words[0])) return false;
  return words.slice(1).every((w) => !candidate(w));
}
/** What ends a maker's label: a dash or ampersand between spaces, "by", an opening parenthesis. */
const LABEL_END = /^\s*(?:[-–—&]\s|by\s|\()/iu;

/** The part of a title that names the product: up to the first qualifier, or the first part that has a word. */
export function namingPart(title: string): string {
  return naming(title).part;
}

/**
 * The head noun of a product title, normalized, or null when it has none (only codes and
 * numbers). Arabic: the first word. Otherwise, in the naming part (namingPart): the last
 * lower-case word after a capitalised one (spec-sheet titles name their type that way), else the
 * last word that is not a unit, colour or size.
 */
export function productHead(title: string): string | null {
  return headOf(naming(title));
}

/** productHead of a title's naming part and its raw words (naming). */
function headOf({ part, words }: { part: string; words: string[] }): string | null {
  if (isArabic(part)) {
    for (const w of words) {
      const c = candidate(w);
      if (c) return c;
    }
    return null;
  }
  // The last lower-case word that can be a head after a capitalised word: spec-sheet titles write
  // their type in lower case ("... Laptop Lock cable lock Black"), last when they repeat it.
  let seenUpper = false;
  let lowerHead: string | null = null;
  for (const w of words) {
    if (/^\p{Lu}/u.test(w)) seenUpper = true;
    else if (seenUpper && startsLower(w)) lowerHead = candidate(w) ?? lowerHead;
  }
  if (lowerHead) return lowerHead;
  for (let i = words.length - 1; i >= 0; i--) {
    const c = candidate(words[i]);
    if (c) return c;
    // The naming part's last word names the product even when it is also a quality or price word: "Women's Top" is a top.
    if (i === words.length - 1) {
      const w = judgeWord(words[i]);
      const kind = w ? intentOf(w) : undefined;
      if (kind === 'quality' || kind === 'price') return w;
    }
  }
  return null;
}

/**
 * The heads of a title: a colon may end a label ("Acme: Summer Dress") or start the qualifiers
 * ("Kids Bike: Red, 12 in"), so each side of the first colon gives its head.
 */
export function productHeads(title: string): string[] {
  const at = title.indexOf(':');
  const sides = at > 0 ? [title.slice(0, at), title.slice(at + 1)] : [title];
  return [...new Set(sides.flatMap((side) => withCoordinated(naming(side))))];
}

/**
 * A head and the noun "and" joins to it last in the naming part: "Igloo 3.2 cu. ft. Refrigerator
 * and Freezer" is a refrigerator and a freezer; "Salt and Pepper Shakers" only shakers (the head is
 * not the word after "and"), "Shampoo & Conditioner" already ends its naming part at the "&".
 */
function withCoordinated(named: { part: string; words: string[] }): string[] {
  const head = headOf(named);
  if (!head) return [];
  const { part, words } = named;
  if (isArabic(part)) return [head];
  let i = words.length - 1;
  while (i >= 0 && !candidate(words[i])) i--;
  if (i < 2 || candidate(words[i]) !== head || words[i - 1].toLowerCase() !== 'and') return [head];
  const other = candidate(words[i - 2]);
  return other ? [head, other] : [head];
}

/** The forms a head is matched by: the word, its last part ("t-shirt" -> shirt), and their stems. */
export function headForms(head: string): string[] {
  const parts = head.split('-');
  const last = parts[parts.length - 1];
  return [...new Set([head, stem(head), last, stem(last)].filter((w) => w.length >= 2))];
}
