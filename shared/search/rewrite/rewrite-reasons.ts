import { isCodeLike, tokenize } from '../../text/normalize.js';
import { stem } from '../../text/stem.js';
import { intentOf } from '../../text/intent-words.js';
import type { Vocabulary } from '../vocabulary.js';

/** From this many words a query is long enough that a model likely reads it better than word matching. */
const LONG = 6;

/** Phrases of someone talking rather than typing keywords (English and Arabic, normalized forms). */
const CONVERSATIONAL = [
  'i need',
  'i want',
  'i am looking',
  'im looking',
  'looking for',
  'show me',
  'find me',
  'can you',
  'do you have',
  'something',
  'anything',
  'which',
  'what',
  'how',
  'recommend',
  'suggest',
  'gift for',
  'help me',
  'اريد',
  'أريد',
  'ابحث عن',
  'أبحث عن',
  'ابغى',
  'ابي',
  'عايز',
  'محتاج',
  'هل',
  'ما هو',
  'ما هي',
  'اقترح',
  'ابحث',
  'شي',
  'شيء',
  'هدية',
];
const USE_CASE = ['for', 'suitable', 'ideal', 'perfect', 'مناسب', 'مناسبة', 'مناسبه', 'لل'];

function has(words: string[], phrase: string): boolean {
  const p = phrase.split(' ');
  for (let i = 0; i + p.length <= words.length; i++) if (p.every((w, j) => words[i + j] === w)) return true;
  return false;
}

/**
 * Why an AI rewrite could help this query (ai=auto asks the model only when one holds): it is long
 * or conversational, it keeps price words the rule parser could not turn into a price range
 * ("cheap", "affordable", "around 500"), it names a use ("shoes for running"), or it has words the
 * catalog does not know and cannot correct. Zero results are the other reason (rewrite-retry step).
 */
export function rewriteReasons(normalized: string, rest: string, vocab: Vocabulary, priceParsed: boolean): string[] {
  const all = tokenize(normalized);
  const left = tokenize(rest);
  const reasons: string[] = [];
  if (all.length >= LONG) reasons.push('long_query');
  if (/[?؟]/.test(normalized) || CONVERSATIONAL.some((p) => has(all, p))) reasons.push('conversational');
  const priceWords =
    left.some((w) => intentOf(w) === 'price') || (!priceParsed && left.some((w) => intentOf(w) === 'comparison') && left.some((w) => /^\d/.test(w)));
  if (priceWords) reasons.push('price_words');
  const useAt = left.findIndex((w) => USE_CASE.includes(w));
  if (useAt >= 0 && useAt < left.length - 1) reasons.push('use_case');
  const unknown = left.filter((w) => !isCodeLike(w) && !intentOf(w) && !vocab.terms.has(w) && !vocab.terms.has(stem(w)) && !vocab.typos.correction(w));
  if (unknown.length) reasons.push('unknown_words');
  return reasons;
}

const fnv = (s: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
};
const versions = new WeakMap<Vocabulary, string>();

/**
 * The catalog version an AI answer is cached under: a fingerprint of the vocabulary (products
 * counted, every word and its frequency, order-free), which refresh-vocabulary rebuilds after
 * catalog changes, and of the attribute mapping (TenantSearchContext.mappingVersion: the model is
 * offered the mapped facets, and its answer filters on their values), which a mapping change
 * replaces. Equal in every API process that loaded the same vocabulary and mapping; no I/O, the
 * vocabulary's part computed once per loaded vocabulary.
 */
export function catalogVersion(vocab: Vocabulary, mappingVersion: string): string {
  let v = versions.get(vocab);
  if (!v) {
    let sum = 0;
    let mix = 0;
    for (const [word, freq] of vocab.terms) {
      sum = (sum + freq) % 4294967296;
      mix = (mix + Math.imul(fnv(word), freq | 1)) >>> 0;
    }
    v = `${vocab.products}-${vocab.terms.size}-${sum.toString(36)}-${mix.toString(36)}`;
    versions.set(vocab, v);
  }
  return `${v}-${mappingVersion}`;
}
