// Brand and colour words, matched on whole words (longest first, multi-word allowed), and the
// clean-up of connector words that only introduced something that was cut out.

import { normalizeText } from '../../text/normalize.js';
import type { ParsedRules, RuleContext } from './types.js';
import { MARK, MARK_RE } from './text.js';

const COLORS: Array<[key: string, words: string[]]> = [
  ['red', ['red', 'أحمر', 'حمراء']],
  ['black', ['black', 'أسود', 'سوداء']],
  ['white', ['white', 'أبيض', 'بيضاء']],
  ['blue', ['blue', 'أزرق', 'زرقاء']],
  ['navy', ['navy', 'navy blue', 'كحلي', 'كحلية']],
  ['green', ['green', 'أخضر', 'خضراء']],
  ['yellow', ['yellow', 'أصفر', 'صفراء']],
  ['grey', ['grey', 'gray', 'رمادي', 'رمادية', 'سكني']],
  ['pink', ['pink', 'وردي', 'وردية', 'زهري', 'زهرية']],
  ['brown', ['brown', 'بني', 'بنية']],
  ['purple', ['purple', 'violet', 'بنفسجي', 'بنفسجية', 'موف']],
  ['orange', ['orange', 'برتقالي', 'برتقالية']],
  ['gold', ['gold', 'golden', 'ذهبي', 'ذهبية']],
  ['rose gold', ['rose gold', 'روز جولد', 'روز قولد']],
  ['silver', ['silver', 'فضي', 'فضية']],
  ['beige', ['beige', 'بيج']],
  ['maroon', ['maroon', 'burgundy', 'عنابي', 'عنابية', 'نبيتي']],
  ['turquoise', ['turquoise', 'فيروزي', 'فيروزية', 'تركواز']],
];

function colorWords(): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, words] of COLORS) {
    for (const w of words) {
      const n = normalizeText(w);
      map.set(n, key);
      // Arabic adjectives take the article with a definite noun: "الحذاء الأحمر".
      if (/^[\u0600-\u06ff]/.test(n) && !n.includes(' ')) map.set(`ال${n}`, key);
    }
  }
  return map;
}

/** Built-in colour words (en + ar, normalized, with Arabic feminine and "ال" forms) -> a colour key like 'red'. */
export const COLOR_WORDS: ReadonlyMap<string, string> = colorWords();

const set = (words: string[]) => new Set(words.map((w) => normalizeText(w)));
/** Dropped when right before a cut-out part: "shoes in red", "laptop priced under 500", "حذاء لون احمر". */
const LEADING = set([
  'for',
  'with',
  'in',
  'at',
  'of',
  'by',
  'from',
  'a',
  'an',
  'the',
  'price',
  'prices',
  'priced',
  'pricing',
  'color',
  'colour',
  'colored',
  'coloured',
  'sort',
  'sorted',
  'order',
  'ordered',
  'brand',
  'لون',
  'اللون',
  'باللون',
  'بلون',
  'ذو',
  'ذات',
  'سعر',
  'السعر',
  'بسعر',
  'سعره',
  'سعرها',
  'بأسعار',
  'أسعار',
  'ب',
  'في',
  'من',
  'حسب',
  'رتب',
  'ترتيب',
  'ماركة',
  'براند',
]);
/** Dropped when right after a cut-out part of that kind: "red colour", "أحمر اللون", "lowest price first". */
const TRAILING = new Map<string, Set<string>>([
  [MARK.color, set(['color', 'colour', 'coloured', 'colored', 'لون', 'اللون'])],
  [MARK.sort, set(['first', 'أولا'])],
]);
/** Dropped between two cut-out parts: "red and blue", "nike or adidas". */
const JOINING = set(['and', 'or', '&', ',', '/', 'و', 'أو']);
/** Right before a brand word these name it as a brand unmistakably ("brand red", "by orange"), even when it is also a colour word. */
const BRAND_MARKERS = set(['brand', 'by', 'ماركة', 'ماركه', 'براند', 'برند']);

/** A brand after these is what the product fits ("case for samsung"), not who made it: kept as text. */
const FITS = set(['for', 'fits', 'compatible', 'ل', 'لجهاز', 'لأجهزة', 'متوافق', 'يناسب']);

/** A brand reading of a word needs at least this share of the store's products carrying the word to be the brand's. */
const BRAND_SHARE = 0.5;

function mostlyOtherWord(word: string, ctx: RuleContext, counts: ReadonlyMap<string, number> | undefined): boolean {
  const own = ctx.brandProducts?.get(word);
  const all = counts?.get(word);
  return own !== undefined && all !== undefined && own < BRAND_SHARE * all;
}

/** Longest phrase length (in words) of a brand or colour table, cached per table. */
const maxWords = new WeakMap<ReadonlyMap<string, string>, { size: number; words: number }>();
function longest(table: ReadonlyMap<string, string>): number {
  const hit = maxWords.get(table);
  if (hit && hit.size === table.size) return hit.words;
  let words = 0;
  for (const key of table.keys()) words = Math.max(words, key.split(' ').length);
  maxWords.set(table, { size: table.size, words });
  return words;
}

const EDGE_PUNCT = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const JOINER = /[-.]/;
const JOINERS = /[-.]/g;

/** The longest phrase of `table` starting at words[i] (whole words; "tp-link" also meets "tp link"). */
function match(words: string[], i: number, table: ReadonlyMap<string, string>, max: number): { value: string; len: number } | null {
  for (let len = Math.min(max, words.length - i); len >= 1; len--) {
    let key = '';
    for (let j = i; j < i + len; j++) {
      if (MARK_RE.test(words[j])) return null;
      key += (j > i ? ' ' : '') + words[j];
    }
    const value = table.get(key) ?? table.get(key.replace(EDGE_PUNCT, '')) ?? (JOINER.test(key) ? table.get(key.replace(JOINERS, ' ')) : undefined);
    if (value !== undefined) return { value, len };
  }
  return null;
}

/** Cuts brands and colours out of the word list, then drops connectors left dangling, and returns the rest. */
export function takeTerms(
  text: string,
  ctx: RuleContext,
  filters: ParsedRules['filters'],
  fired: ParsedRules['fired'],
  /** Products carrying each word in the store (its vocabulary), when known. */
  counts?: ReadonlyMap<string, number>,
): string {
  const words = text.split(' ').filter((w) => w.length > 0);
  const brandMax = ctx.brands.size ? longest(ctx.brands) : 0;
  const colors = ctx.colorFacet && ctx.colors.size ? ctx.colors : null;
  const colorMax = colors ? longest(colors) : 0;
  const out: string[] = [];
  const add = (key: string, value: string) => {
    const list = ((filters[key] as string[] | undefined) ??= []);
    if (!list.includes(value)) list.push(value);
  };

  for (let i = 0; i < words.length; i++) {
    const prev = out[out.length - 1];
    if (brandMax && !(prev !== undefined && FITS.has(prev))) {
      const b = match(words, i, ctx.brands, brandMax);
      // A colour word reads as a colour ("red dress" is not the brand RED) unless the shopper marks it as the brand.
      const marked = prev !== undefined && BRAND_MARKERS.has(prev);
      const colourWord = b !== null && COLOR_WORDS.has(words.slice(i, i + b.len).join(' ')) && !marked;
      if (b && colourWord) fired.push({ rule: 'colour_not_brand', text: words.slice(i, i + b.len).join(' ') });
      // A one-word brand most of whose word's products are not the brand's is that word ("coffee mug" in a store with a brand Coffee).
      const otherWord = b !== null && !colourWord && !marked && b.len === 1 && mostlyOtherWord(words[i], ctx, counts);
      if (otherWord) fired.push({ rule: 'word_not_brand', text: words[i] });
      if (b && !colourWord && !otherWord) {
        add('brand', b.value);
        fired.push({ rule: 'brand', text: words.slice(i, i + b.len).join(' ') });
        out.push(MARK.brand);
        i += b.len - 1;
        continue;
      }
    }
    if (colors) {
      const c = match(words, i, colors, colorMax);
      if (c) {
        add(ctx.colorFacet as string, c.value);
        fired.push({ rule: 'color', text: words.slice(i, i + c.len).join(' ') });
        out.push(MARK.color);
        i += c.len - 1;
        continue;
      }
    }
    // "احمر واسود": the second colour (or brand) carries the conjunction و.
    const w = words[i];
    if (w.length > 2 && w.startsWith('و') && prev !== undefined && (prev === MARK.color || prev === MARK.brand)) {
      const table = prev === MARK.color ? colors : ctx.brands;
      const value = table?.get(w.slice(1));
      if (table && value !== undefined) {
        add(prev === MARK.color ? (ctx.colorFacet as string) : 'brand', value);
        fired.push({ rule: prev === MARK.color ? 'color' : 'brand', text: w });
        out.push(prev);
        continue;
      }
    }
    out.push(w);
  }
  return cleanUp(out);
}

function cleanUp(words: string[]): string {
  const out: string[] = [];
  for (const w of words) {
    if (MARK_RE.test(w)) {
      // Connectors right before a cut-out part only introduced it ("shoes in red", "sort by newest").
      while (out.length && LEADING.has(out[out.length - 1])) out.pop();
      // "red and blue": the joining word sits between two cut-out parts.
      if (out.length >= 2 && JOINING.has(out[out.length - 1]) && MARK_RE.test(out[out.length - 2])) out.pop();
      out.push(w);
    } else if (out.length && TRAILING.get(out[out.length - 1])?.has(w)) {
      continue;
    } else {
      out.push(w);
    }
  }
  return out.filter((w) => !MARK_RE.test(w)).join(' ');
}
