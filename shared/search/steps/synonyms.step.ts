import { tokenize } from '../../text/normalize.js';
import type { SearchStep } from './state.js';
import { boundWords } from '../query-bounds.js';

/** The words to match (each once, at most MAX_QUERY_WORDS), and what the store's synonym sets (and the global rules) add to them; conditions read the whole normalized query. */
export const synonyms: SearchStep = {
  name: 'synonyms',
  run(s) {
    const { words, dropped } = boundWords(tokenize(s.text));
    s.tokens = words;
    s.droppedWords = dropped;
    const matcher = s.ctx.synonyms;
    // Conditions read the normalized query (README): a word the rule parser made a filter or sort of still counts.
    s.segments = matcher.size ? matcher.apply(s.tokens, { sets: new Set(s.ranking.synonym_sets), global: s.ranking.global_synonyms, query: s.normalized }) : [];
  },
  trace: (s) => ({
    tokens: s.tokens,
    dropped_words: s.droppedWords,
    fired: s.segments.flatMap((x) => x.ruleIds),
    expansions: s.segments.filter((x) => x.expansions.length).map((x) => ({ words: x.tokens.join(' '), also: x.expansions.map((e) => e.join(' ')) })),
  }),
};
