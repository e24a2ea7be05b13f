// Words that say what the shopper wants of a product (price level, quality, recency, audience,
// comparison) rather than what the product is. General language, English and Arabic, written as
// people type them (normalized at load like queries): no store's or collection's words.
//
// They are intents, never typo-corrected into catalog words ("cheap" is not "chap"); one the
// catalog does not know is not required to match (query-plan.ts), and the AI rewrite takes price
// and use-case intents as a sign it may help.

import { normalizeText } from './normalize.js';

export type IntentKind = 'price' | 'quality' | 'recency' | 'audience' | 'comparison';

const WORDS: Record<IntentKind, string[]> = {
  price: [
    'cheap', 'cheaper', 'cheapest', 'affordable', 'inexpensive', 'budget', 'low-cost', 'lowcost', 'expensive', 'pricey', 'premium', 'luxury',
    'luxurious', 'bargain', 'discount', 'discounted', 'deal', 'deals', 'offer', 'offers', 'sale', 'clearance',
    'رخيص', 'رخيصة', 'رخيصه', 'ارخص', 'أرخص', 'اقتصادي', 'اقتصادية', 'غالي', 'غالية', 'فاخر', 'فاخرة', 'خصم', 'خصومات', 'عرض', 'عروض', 'تخفيض', 'تخفيضات', 'تنزيلات',
  ],
  quality: [
    'best', 'top', 'good', 'great', 'quality', 'nice', 'excellent', 'perfect', 'awesome', 'recommended', 'popular', 'rated', 'top-rated',
    'أفضل', 'افضل', 'احسن', 'أحسن', 'ممتاز', 'ممتازة', 'جيد', 'جيدة', 'حلو', 'حلوة', 'مميز', 'مميزة',
  ],
  recency: [
    'new', 'newest', 'latest', 'recent', 'modern', 'trending', 'trendy',
    'جديد', 'جديدة', 'جديده', 'أحدث', 'احدث', 'حديث', 'حديثة', 'موضة', 'ترند',
  ],
  audience: [
    'for', 'men', 'mens', 'man', 'women', 'womens', 'woman', 'ladies', 'lady', 'kids', 'kid', 'children', 'child', 'boys', 'boy', 'girls', 'girl',
    'baby', 'babies', 'toddler', 'unisex', 'teens', 'adults',
    'رجالي', 'رجال', 'للرجال', 'نسائي', 'نسائية', 'نساء', 'للنساء', 'حريمي', 'أطفال', 'اطفال', 'للأطفال', 'ولادي', 'بناتي', 'بنات', 'أولاد', 'اولاد', 'مواليد', 'للجنسين',
  ],
  comparison: [
    'under', 'over', 'below', 'above', 'less', 'more', 'than', 'between', 'within', 'around', 'about', 'approx', 'approximately', 'upto', 'max', 'min',
    'تحت', 'فوق', 'أقل', 'اقل', 'أكثر', 'اكثر', 'بين', 'حوالي', 'تقريبا', 'حدود',
  ],
};

const INTENT = new Map<string, IntentKind>();
for (const [kind, list] of Object.entries(WORDS) as Array<[IntentKind, string[]]>) {
  for (const w of list) INTENT.set(normalizeText(w), kind);
}

/** The intent a (normalized) word carries, if it is one of the intent words. */
export function intentOf(word: string): IntentKind | undefined {
  return INTENT.get(word);
}

export function isIntentWord(word: string): boolean {
  return INTENT.has(word);
}
