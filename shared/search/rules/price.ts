// Price intents: maximums ("under 100", "اقل من 100"), minimums ("over 100", "100+"),
// ranges ("100-200", "بين 100 و 200"), with currency words and symbols eaten on either
// side of the number. A number is only a price when a comparison word, a range or a currency
// marks it, and never when a unit follows it ("up to 10 hours", "under 65 inch").

import type { ParsedRules } from './types.js';
import { B, E, MARK, phrases } from './text.js';

const CURRENCY_BEFORE = [
  '$',
  'us$',
  'usd',
  'sar',
  'sr',
  'aed',
  'egp',
  'inr',
  'rs',
  'rs.',
  '₹',
  '£',
  'gbp',
  '€',
  'eur',
  'kwd',
  'qar',
  'bhd',
  'omr',
  'ر.س',
  'ريال',
  'د.إ',
  'ج.م',
];
const CURRENCY_AFTER = [
  ...CURRENCY_BEFORE,
  'dollar',
  'dollars',
  'riyal',
  'riyals',
  'rial',
  'rials',
  'dirham',
  'dirhams',
  'euro',
  'euros',
  'rupee',
  'rupees',
  'ريالا',
  'ريالات',
  'رس',
  'درهم',
  'درهما',
  'دراهم',
  'جنيه',
  'جنيها',
  'جنيهات',
  'دولار',
  'دولارا',
  'دولارات',
  'دينار',
  'دينارا',
  'يورو',
  'روبية',
];
/** A number followed by one of these is a spec, not a price ("up to 10 hours", "under 65 inch", "at least 8 gb"). */
const UNITS = [
  'gb',
  'tb',
  'mb',
  'kb',
  'g',
  'gm',
  'gr',
  'gram',
  'grams',
  'kg',
  'kgs',
  'mg',
  'lb',
  'lbs',
  'oz',
  'ml',
  'l',
  'ltr',
  'liter',
  'liters',
  'litre',
  'litres',
  'cm',
  'mm',
  'm',
  'meter',
  'meters',
  'km',
  'inch',
  'inches',
  '"',
  "''",
  'ft',
  'feet',
  'foot',
  'w',
  'watt',
  'watts',
  'kw',
  'v',
  'volt',
  'volts',
  'mah',
  'ah',
  'hz',
  'khz',
  'mhz',
  'ghz',
  'mp',
  'megapixel',
  'px',
  'p',
  'fps',
  'rpm',
  'bit',
  'bits',
  'core',
  'cores',
  'gen',
  'generation',
  'th',
  'st',
  'nd',
  'rd',
  'h',
  'hr',
  'hrs',
  'hour',
  'hours',
  'min',
  'mins',
  'minute',
  'minutes',
  'sec',
  'secs',
  'seconds',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'year',
  'years',
  'yr',
  'yrs',
  'pcs',
  'pc',
  'piece',
  'pieces',
  'pack',
  'packs',
  'pair',
  'pairs',
  'x',
  'people',
  'persons',
  'person',
  'seater',
  'seats',
  'port',
  'ports',
  'cups',
  'pages',
  'sheets',
  '%',
  'percent',
  'off',
  'جيجا',
  'جيجابايت',
  'جيغا',
  'غيغا',
  'تيرا',
  'تيرابايت',
  'ميجا',
  'ميغا',
  'بوصة',
  'بوصات',
  'انش',
  'إنش',
  'انشات',
  'سم',
  'مم',
  'متر',
  'م',
  'كيلو',
  'كجم',
  'كغ',
  'جرام',
  'غرام',
  'جم',
  'ملي',
  'مل',
  'لتر',
  'واط',
  'وات',
  'فولت',
  'امبير',
  'ميجابكسل',
  'بكسل',
  'هرتز',
  'قدم',
  'ساعة',
  'ساعات',
  'دقيقة',
  'دقائق',
  'يوم',
  'أيام',
  'أسبوع',
  'شهر',
  'أشهر',
  'شهور',
  'سنة',
  'سنوات',
  'سنين',
  'قطعة',
  'قطع',
  'حبة',
  'حبات',
  'شخص',
  'أشخاص',
  'نواة',
  'خصم',
];

const NUM = '\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?';
const MULT = `k|\\s?(?:${phrases(['thousand', 'ألف', 'آلاف'])})`;
/** Not inside a longer number: "1.5 kg" must not be read as 1 followed by ".5 kg". */
const E_NUM = '(?![\\p{L}\\p{N}\\p{M}]|[.,]\\d)';
/** An amount: optional currency, a number (thousands separators, decimals, k/thousand), optional currency, and no unit after. */
const AMOUNT =
  `(?:(?:${phrases(CURRENCY_BEFORE)})\\s*)?(?:${NUM})(?:${MULT})?` + `(?:\\s*(?:${phrases(CURRENCY_AFTER)})${E}|${E_NUM}(?!\\s*(?:${phrases(UNITS)})${E}))`;
/** The same, starting on a word boundary (for patterns that begin with the amount). */
const AMOUNT_B = `${B}${AMOUNT}`;

const MAX_WORDS = [
  'under',
  'below',
  'less than',
  'lower than',
  'cheaper than',
  'up to',
  'upto',
  'within',
  'not more than',
  'no more than',
  'not over',
  'not exceeding',
  'at most',
  'budget',
  'max price',
  'maximum price',
  'أقل من',
  'بأقل من',
  'وأقل من',
  'أرخص من',
  'تحت',
  'حتى',
  'لحد',
  'لغاية',
  'لا يزيد عن',
  'لا يزيد على',
  'لا يتجاوز',
  'ما دون',
  'دون',
  'بحد أقصى',
  'كحد أقصى',
  'حد أقصى',
  'أقصى',
  'السعر الأقصى',
];
const MIN_WORDS = [
  'over',
  'above',
  'more than',
  'greater than',
  'higher than',
  'more expensive than',
  'pricier than',
  'at least',
  'not less than',
  'no less than',
  'starting at',
  'starting from',
  'starts at',
  'starts from',
  'min price',
  'minimum price',
  'أكثر من',
  'بأكثر من',
  'فوق',
  'أعلى من',
  'أغلى من',
  'لا يقل عن',
  'لا يقل على',
  'ابتداء من',
  'ابتداءا من',
  'بدءا من',
  'بداية من',
  'يبدأ من',
  'بحد أدنى',
  'كحد أدنى',
  'حد أدنى',
  'ما فوق',
];
/** Arabic attaches "and" to the next word: "فوق 100 وتحت 300". */
const withWaw = (words: string[]) => [...words, ...words.filter((w) => /^[\u0600-\u06ff]/.test(w) && !w.startsWith('و')).map((w) => `و${w}`)];

/** "max"/"min" name product lines after these words ("iphone 15 pro max 256", "nike air max 90"). */
const MODEL_WORDS = phrases(['pro', 'air', 'ultra', 'plus', 'note', 'mini', 'galaxy', 'fold', 'flip', 'watch', 'redmi', 'xs']);
const MAX_MIN_WORD = (words: string[]) => `(?<!${B}(?:${MODEL_WORDS})\\s+)(?:${phrases(words)})`;

const MAX_POSTFIX = [
  'or less',
  'or lower',
  'or below',
  'or under',
  'or cheaper',
  'and under',
  'and below',
  'at most',
  'أو أقل',
  'او ارخص',
  'وأقل',
  'فأقل',
  'وما دون',
  'فما دون',
  'كحد أقصى',
  'بحد أقصى',
];
const MIN_POSTFIX = [
  'or more',
  'or higher',
  'or above',
  'or over',
  'or greater',
  'and above',
  'and up',
  'and over',
  'and more',
  'at least',
  'فما فوق',
  'وما فوق',
  'فأكثر',
  'وأكثر',
  'أو أكثر',
  'على الأقل',
  'كحد أدنى',
  'بحد أدنى',
  'وأعلى',
  'أو أعلى',
  'فأعلى',
];
const RANGE_WORDS = ['between', 'from', 'priced between', 'بين', 'ما بين', 'من'];
const RANGE_SEP = `-|–|—|${phrases(['to', 'and', '&', 'up to', 'إلى', 'الى', 'حتى', 'لغاية', 'لحد', 'و'])}`;
const BARE_RANGE_SEP = `-|–|—|${phrases(['to', 'إلى', 'الى'])}`;
const FOLLOWED_BY_RANGE_END = `(?!\\s*(?:${BARE_RANGE_SEP}|${phrases(['and', 'و', 'حتى'])})\\s*(?:${phrases(CURRENCY_BEFORE)})?\\s*\\d)`;

/** A postfix ("and under", "or more") followed by another amount belongs to the next phrase: "over 100 and under 300". */
const NO_AMOUNT_AFTER = `(?!\\s*(?:${phrases(CURRENCY_BEFORE)})?\\s*\\d)`;

const re = (source: string) => new RegExp(source, 'giu');
/** "between 100 and 200", "from $100 to $200", "من 100 إلى 200", "بين 100 و200" (bounds in either order). */
const RANGE_WITH_WORD = re(`${B}(?:${phrases(RANGE_WORDS)})\\s*${AMOUNT}\\s*(?:${RANGE_SEP})\\s*${AMOUNT}`);
/** Before a bare "10-12" these make it a size, age, model or year range, not prices. */
const SPEC_BEFORE = phrases([
  'size',
  'sizes',
  'age',
  'ages',
  'aged',
  'model',
  'models',
  'year',
  'years',
  'version',
  'no',
  'number',
  'series',
  'مقاس',
  'مقاسات',
  'عمر',
  'سن',
  'للأعمار',
  'أعمار',
  'موديل',
  'سنة',
  'رقم',
  'إصدار',
]);
/** "100-200", "$100 to $200" (lower bound first). */
const RANGE_BARE = re(`(?<!${B}(?:${SPEC_BEFORE})\\s+)${AMOUNT_B}\\s*(?:${BARE_RANGE_SEP})\\s*${AMOUNT}`);
const MAX = re(
  `${B}(?:${phrases(withWaw(MAX_WORDS))}|${MAX_MIN_WORD(['max', 'maximum'])})\\s*${AMOUNT}` +
    `|(?:<=|=<|<|≤)\\s*${AMOUNT}` +
    `|${AMOUNT_B}\\s*(?:${phrases(MAX_POSTFIX)})${E}${NO_AMOUNT_AFTER}`,
);
const MIN = re(
  `${B}(?:${phrases(withWaw(MIN_WORDS))}|${MAX_MIN_WORD(['min', 'minimum'])})\\s*${AMOUNT}` +
    `|(?:>=|=>|>|≥)\\s*${AMOUNT}` +
    `|${B}(?:from|من)\\s+${AMOUNT}\\s*(?:${phrases(MIN_POSTFIX)})${E}${NO_AMOUNT_AFTER}` +
    `|${AMOUNT_B}\\s*(?:${phrases(MIN_POSTFIX)})${E}${NO_AMOUNT_AFTER}` +
    `|${B}from\\s*${AMOUNT}${FOLLOWED_BY_RANGE_END}`,
);
/** "100+": only a price with a currency or from 100 up, since "iphone 15+" and "18+" are not prices. */
const PLUS = re(`${AMOUNT_B}\\s*\\+(?![\\p{L}\\p{N}+])`);

/** Numbers in a matched price phrase, with their k/thousand multiplier. */
const NUMBER_G = new RegExp(`(${NUM})(${MULT})?`, 'gu');

/** True when the matched phrase names a currency (what is left once numbers, signs and spaces are gone). */
const hasCurrency = (matched: string) => /[^\d.,+\-–—\s]/u.test(matched.replace(NUMBER_G, ''));
/** "2018-2020" alone reads as model years. */
const YEARS = (a: number, b: number) => Number.isInteger(a) && Number.isInteger(b) && a >= 1950 && b <= 2049;

function amounts(matched: string): Array<{ value: number; mult: boolean }> {
  const out: Array<{ value: number; mult: boolean }> = [];
  for (const m of matched.matchAll(NUMBER_G)) {
    const mult = m[2] !== undefined;
    out.push({ value: Number(m[1].replace(/,/g, '')) * (mult ? 1000 : 1), mult });
  }
  return out;
}

type Filters = ParsedRules['filters'];
type Fired = ParsedRules['fired'];
const CUT = ` ${MARK.price} `;

/** Cuts price phrases out of `text` (already padded with spaces), setting filters.price. */
export function takePrices(text: string, filters: Filters, fired: Fired): string {
  const bound = (rule: string, matched: string, gte: number | undefined, lte: number | undefined) => {
    const price = (filters.price ??= {});
    // Several phrases narrow each other ("over 100 under 300", or a range and a maximum).
    if (gte !== undefined) price.gte = price.gte === undefined ? gte : Math.max(price.gte, gte);
    if (lte !== undefined) price.lte = price.lte === undefined ? lte : Math.min(price.lte, lte);
    fired.push({ rule, text: matched.trim() });
    return CUT;
  };
  const range = (bare: boolean) => (matched: string) => {
    const [a, b] = amounts(matched);
    if (!a || !b) return matched;
    // "1-2k" means 1000-2000.
    const low = b.mult && !a.mult && a.value * 1000 < b.value ? a.value * 1000 : a.value;
    if (bare && YEARS(low, b.value) && !hasCurrency(matched)) return matched;
    if (low === b.value || (bare && low > b.value)) return bare ? matched : bound('price_range', matched, low, low);
    return bound('price_range', matched, Math.min(low, b.value), Math.max(low, b.value));
  };

  let t = text.replace(RANGE_WITH_WORD, range(false)).replace(RANGE_BARE, range(true));
  t = t.replace(MAX, (m) => bound('price_max', m, undefined, amounts(m)[0].value));
  t = t.replace(MIN, (m) => bound('price_min', m, amounts(m)[0].value, undefined));
  t = t.replace(PLUS, (m) => {
    const [a] = amounts(m);
    return hasCurrency(m) || a.value >= 100 ? bound('price_min', m, a.value, undefined) : m;
  });
  return t;
}
