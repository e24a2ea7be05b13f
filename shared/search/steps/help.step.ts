import { normalizeText, tokenize } from '../../text/normalize.js';
import type { SearchHitOut, SearchStep } from './state.js';

/** Did-you-mean from the typo corrections, and zero-result help (the store's biggest categories) when nothing or only a relaxed query matched. */
export const help: SearchStep = {
  name: 'help',
  run(s) {
    const corrections = s.plan.corrections;
    if (corrections.length) {
      const map = new Map(corrections.map((c) => [c.from, c.to]));
      const written = writings(new Set(map.values()), s.hits);
      s.didYouMean = tokenize(s.text)
        .map((t) => {
          const to = map.get(t);
          return to === undefined ? t : (written.get(to) ?? to);
        })
        .join(' ');
    } else {
      s.didYouMean = null;
    }
    s.zeroResultHelp =
      s.result.total === 0 || s.relaxed
        ? { relaxed: s.relaxed, relaxed_query: s.relaxed ? s.text : null, popular_categories: s.ctx.popularCategories.slice(0, 5) }
        : null;
  },
  trace: (s) => ({ did_you_mean: s.didYouMean, zero_result_help: s.zeroResultHelp !== null }),
};

const DOTTED_I = /i\u0307/g;

/** Letters and digits at a word's ends: what a name's word is without its punctuation. */
const EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/**
 * The catalog's own writing of each corrected word (normalized vocabulary terms: "عبايه" is
 * "عباية" as the names write it), read from the names of the hits shown, which hold the corrected
 * words; the most frequent writing of each, in lower case (only the letters normalization folds
 * differ, not the case). Memory only, and only for a search with corrections; a word no shown name
 * has stays normalized.
 */
function writings(words: Set<string>, hits: SearchHitOut[]): Map<string, string> {
  const seen = new Map<string, Map<string, number>>();
  for (const h of hits) {
    for (const name of Object.values(h.product.name)) {
      for (const raw of name.split(/\s+/)) {
        const word = raw.replace(EDGES, '');
        if (!word) continue;
        const norm = normalizeText(word);
        if (!words.has(norm)) continue;
        const forms = seen.get(norm) ?? new Map<string, number>();
        // Lower case as the shopper types it: "İstanbul" is "istanbul", not toLowerCase's i with a combining dot.
        const form = word.toLowerCase().replace(DOTTED_I, 'i');
        forms.set(form, (forms.get(form) ?? 0) + 1);
        seen.set(norm, forms);
      }
    }
  }
  const out = new Map<string, string>();
  for (const [norm, forms] of seen) out.set(norm, [...forms].reduce((a, b) => (b[1] > a[1] ? b : a))[0]);
  return out;
}
