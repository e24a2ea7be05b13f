// Sort intents: superlatives and "price low to high" style phrases, English and Arabic.
// Plain adjectives ("cheap", "new", "جديد") are product words, not sort orders.

import { normalizeText } from '../../text/normalize.js';
import type { ParsedRules, RuleSort } from './types.js';
import { B, E, MARK, phrases, squash } from './text.js';

const SORT_PHRASES: Record<RuleSort, string[]> = {
  price_asc: [
    'cheapest',
    'cheapest first',
    'lowest price',
    'lowest prices',
    'lowest priced',
    'least expensive',
    'price low to high',
    'price: low to high',
    'prices low to high',
    'price lowest first',
    'price ascending',
    'low to high',
    'low price first',
    'الأرخص',
    'ارخص',
    'بأرخص',
    'الأرخص أولا',
    'أرخص سعر',
    'بأرخص سعر',
    'أرخص الأسعار',
    'الأقل سعرا',
    'أقل سعر',
    'بأقل سعر',
    'الأقل ثمنا',
    'من الأرخص إلى الأغلى',
    'من الأقل إلى الأعلى',
    'السعر من الأقل إلى الأعلى',
    'السعر تصاعدي',
    'السعر تصاعديا',
  ],
  price_desc: [
    'most expensive',
    'most expensive first',
    'highest price',
    'highest prices',
    'highest priced',
    'priciest',
    'price high to low',
    'price: high to low',
    'prices high to low',
    'price highest first',
    'price descending',
    'high to low',
    'high price first',
    'الأغلى',
    'أغلى',
    'الأغلى أولا',
    'الأغلى سعرا',
    'أغلى سعر',
    'الأعلى سعرا',
    'أعلى سعر',
    'الأغلى ثمنا',
    'من الأغلى إلى الأرخص',
    'من الأعلى إلى الأقل',
    'السعر من الأعلى إلى الأقل',
    'السعر تنازلي',
    'السعر تنازليا',
  ],
  newest: [
    'newest',
    'newest first',
    'latest',
    'new arrivals',
    'new arrival',
    'most recent',
    'recently added',
    'الأحدث',
    'أحدث',
    'الأحدث أولا',
    'وصل حديثا',
    'وصلت حديثا',
    'المضاف حديثا',
  ],
  popular: [
    'best selling',
    'best-selling',
    'bestselling',
    'best seller',
    'best sellers',
    'bestseller',
    'bestsellers',
    'top selling',
    'most popular',
    'popular',
    'الأكثر مبيعا',
    'الأكثر شعبية',
    'الأكثر طلبا',
    'الأكثر رواجا',
    'الأكثر شهرة',
    'الأشهر',
    'الأفضل مبيعا',
    'الأعلى مبيعا',
  ],
};

const SORT_OF = new Map<string, RuleSort>();
for (const [sort, list] of Object.entries(SORT_PHRASES) as Array<[RuleSort, string[]]>) {
  for (const p of list) SORT_OF.set(normalizeText(p), sort);
}
const SORT_RE = new RegExp(`${B}(?:${phrases([...SORT_OF.keys()])})${E}`, 'giu');
const CUT = ` ${MARK.sort} `;

/** Cuts sort phrases out of `text`; the first one decides the sort, later ones are dropped too. */
export function takeSort(text: string, fired: ParsedRules['fired']): { text: string; sort: RuleSort | null } {
  let sort: RuleSort | null = null;
  const out = text.replace(SORT_RE, (m) => {
    const s = SORT_OF.get(squash(m));
    if (!s) return m;
    sort ??= s;
    fired.push({ rule: `sort_${s}`, text: squash(m) });
    return CUT;
  });
  return { text: out, sort };
}
