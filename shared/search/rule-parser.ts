import { normalizeText, tokenize } from './normalize.js';

/** What the parser knows about the tenant. All keys are normalized text. */
export interface RuleContext {
  /** Brand name (may be multi-word) -> the brand value used in filters. */
  brands: Map<string, string>;
  /** Colour word (English or Arabic) -> the tenant's colour facet value. */
  colors: Map<string, string>;
  /** Canonical name of the colour facet, or null when the tenant has none. */
  colorFacet: string | null;
}

export interface ParsedRules {
  filters: { price?: { gte?: number; lte?: number }; brand?: string[]; [facet: string]: unknown };
  sort: 'price_asc' | 'price_desc' | 'newest' | 'popular' | null;
  /** The normalized text left once what was understood is taken out. */
  rest: string;
  fired: Array<{ rule: string; text: string }>;
}

const n = (s: string) => normalizeText(s);
const alt = (words: string[]) => words.map((w) => n(w).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length).join('|');

const CUR = `(?:${alt(['$', 'usd', 'dollar', 'dollars', 'sar', 'riyal', 'riyals', 'ريال', 'ر.س', 'rs', 'rs.', 'inr', '₹', 'aed', 'درهم', 'egp', 'جنيه', '£', 'gbp', '€', 'eur', 'euro', 'euros'])})`;
const NUM = `(\\d+(?:,\\d{3})*(?:\\.\\d+)?k?)`;
const AMOUNT = `${CUR}?\\s*${NUM}\\s*${CUR}?`;
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';

const RANGE = new RegExp(`${B}(?:${alt(['between', 'from', 'بين', 'من'])})?\\s*${AMOUNT}\\s*(?:-|–|${alt(['to', 'and', 'الي', 'الى', 'و'])})\\s*${AMOUNT}${E}`, 'giu');
const MAX = new RegExp(`${B}(?:${alt(['under', 'below', 'less than', 'cheaper than', 'up to', 'upto', 'max', 'maximum', 'within', 'اقل من', 'باقل من', 'تحت', 'حتي', 'لا يزيد عن', 'ما دون'])})\\s*${AMOUNT}${E}|<\\s*${AMOUNT}${E}|${B}${AMOUNT}\\s*(?:${alt(['or less', 'or below', 'and below', 'and under', 'او اقل', 'وما دون'])})${E}`, 'giu');
const MIN = new RegExp(`${B}(?:${alt(['over', 'above', 'more than', 'at least', 'min', 'minimum', 'starting at', 'اكثر من', 'فوق', 'اعلي من', 'ابتداء من'])})\\s*${AMOUNT}${E}|>\\s*${AMOUNT}${E}|${B}${AMOUNT}\\s*(?:\\+|${alt(['or more', 'and above', 'and up', 'او اكثر', 'فما فوق'])})(?![\\p{L}\\p{N}])|${B}${alt(['من'])}\\s*${AMOUNT}\\s*${alt(['فما فوق'])}${E}`, 'giu');

const SORTS: Array<[string[], NonNullable<ParsedRules['sort']>]> = [
  [['cheapest', 'lowest price', 'price low to high', 'low to high', 'least expensive', 'الارخص', 'ارخص', 'الاقل سعرا', 'الارخص سعرا'], 'price_asc'],
  [['most expensive', 'highest price', 'price high to low', 'high to low', 'priciest', 'الاغلي', 'اغلي', 'الاعلي سعرا', 'الاغلي سعرا'], 'price_desc'],
  [['newest', 'latest', 'new arrivals', 'most recent', 'الاحدث', 'احدث', 'وصل حديثا'], 'newest'],
  [['best selling', 'bestselling', 'best sellers', 'most popular', 'popular', 'top rated', 'الاكثر مبيعا', 'الاكثر شعبيه', 'الاشهر'], 'popular'],
];
const SORT_RE = SORTS.map(([words, sort]) => [new RegExp(`${B}(?:${alt(words)})${E}`, 'iu'), sort] as const);

/** Small words that only introduced what was taken out ("shoes in red", "laptop priced under 500", "حذاء لون احمر"). */
const CONNECTOR = new RegExp(`${B}(?:${alt(['for', 'with', 'in', 'priced', 'price', 'at', 'of', 'color', 'colour', 'بسعر', 'سعر', 'لون', 'باللون', 'ب'])})\\s*\u0001`, 'giu');

const COLORS: Array<[string, string[]]> = [
  ['red', ['red', 'احمر', 'حمراء', 'الاحمر']], ['black', ['black', 'اسود', 'سوداء', 'الاسود']], ['white', ['white', 'ابيض', 'بيضاء', 'الابيض']],
  ['blue', ['blue', 'navy', 'ازرق', 'زرقاء', 'كحلي']], ['green', ['green', 'اخضر', 'خضراء']], ['yellow', ['yellow', 'اصفر', 'صفراء']],
  ['grey', ['grey', 'gray', 'رمادي', 'رماديه']], ['pink', ['pink', 'وردي', 'ورديه', 'زهري']], ['brown', ['brown', 'بني', 'بنيه']],
  ['purple', ['purple', 'violet', 'بنفسجي', 'بنفسجيه']], ['orange', ['orange', 'برتقالي', 'برتقاليه']], ['gold', ['gold', 'golden', 'ذهبي', 'ذهبيه']],
  ['silver', ['silver', 'فضي', 'فضيه']], ['beige', ['beige', 'بيج']],
];

/** Built-in colour words (normalized, English and Arabic) -> colour key. */
export const COLOR_WORDS: ReadonlyMap<string, string> = new Map(COLORS.flatMap(([key, words]) => words.map((w) => [n(w), key] as [string, string])));

function amount(raw: string): number {
  const k = raw.endsWith('k');
  const v = Number(raw.replace(/k$/, '').replace(/,/g, ''));
  return k ? v * 1000 : v;
}

/**
 * Finds price, sort, brand and colour intents in a normalized query (Arabic and English) and
 * returns them as filters and a sort, with the rest of the text. A bare number is never a price:
 * it needs a comparison word, a range, or an explicit "+".
 */
export function parseRules(normalized: string, ctx: RuleContext): ParsedRules {
  const fired: ParsedRules['fired'] = [];
  const filters: ParsedRules['filters'] = {};
  let sort: ParsedRules['sort'] = null;
  let text = ` ${normalized} `;
  const take = (re: RegExp, rule: string, on: (m: RegExpExecArray) => boolean) => {
    re.lastIndex = 0;
    text = text.replace(re, (...args) => {
      const m = args.slice(0, -2) as unknown as RegExpExecArray;
      if (!on(m)) return m[0];
      fired.push({ rule, text: m[0].trim() });
      return ' \u0001 ';
    });
  };
  take(RANGE, 'price_range', (m) => {
    const [a, b] = [amount(m[1]), amount(m[2])];
    if (!(a < b)) return false;
    filters.price = { gte: a, lte: b };
    return true;
  });
  if (!filters.price) {
    take(MAX, 'price_max', (m) => ((filters.price = { ...filters.price, lte: amount(m[1] ?? m[2] ?? m[3]) }), true));
    take(MIN, 'price_min', (m) => ((filters.price = { ...filters.price, gte: amount(m[1] ?? m[2] ?? m[3] ?? m[4]) }), true));
  }
  for (const [re, s] of SORT_RE) {
    if (sort) break;
    take(new RegExp(re.source, 'giu'), `sort_${s}`, () => ((sort = s), true));
  }
  const tokens = tokenize(text.replace(/\u0001/g, ' \u0001 ')).length ? text.split(/\s+/).filter(Boolean) : [];
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const brand = longestBrand(tokens, i, ctx.brands);
    if (brand) {
      (filters.brand ??= []).includes(brand.value) || filters.brand.push(brand.value);
      fired.push({ rule: 'brand', text: tokens.slice(i, i + brand.len).join(' ') });
      out.push('\u0001');
      i += brand.len - 1;
      continue;
    }
    const colour = ctx.colorFacet ? ctx.colors.get(tokens[i]) : undefined;
    if (colour && ctx.colorFacet) {
      const list = (filters[ctx.colorFacet] as string[] | undefined) ?? [];
      if (!list.includes(colour)) list.push(colour);
      filters[ctx.colorFacet] = list;
      fired.push({ rule: 'color', text: tokens[i] });
      out.push('\u0001');
      continue;
    }
    out.push(tokens[i]);
  }
  const rest = ` ${out.join(' ')} `.replace(CONNECTOR, '\u0001').replace(/\u0001/g, ' ').replace(/\s+/g, ' ').trim();
  return { filters, sort, rest, fired };
}

function longestBrand(tokens: string[], i: number, brands: Map<string, string>): { value: string; len: number } | null {
  if (!brands.size || tokens[i] === '\u0001') return null;
  for (let len = Math.min(4, tokens.length - i); len >= 1; len--) {
    const value = brands.get(tokens.slice(i, i + len).join(' '));
    if (value) return { value, len };
  }
  return null;
}
