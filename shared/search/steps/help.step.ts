import { tokenize } from '../../text/normalize.js';
import type { SearchStep } from './state.js';

/** Did-you-mean from the typo corrections, and zero-result help (the store's biggest categories) when nothing or only a relaxed query matched. */
export const help: SearchStep = {
  name: 'help',
  run(s) {
    const corrections = s.plan.corrections;
    if (corrections.length) {
      const map = new Map(corrections.map((c) => [c.from, c.to]));
      s.didYouMean = tokenize(s.text)
        .map((t) => map.get(t) ?? t)
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
