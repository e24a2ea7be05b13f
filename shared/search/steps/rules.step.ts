import type { FilterValue } from '../../engines/lexical/port.js';
import { parseRules } from '../rule-parser.js';
import type { SearchStep } from './state.js';

/** Price, brand, colour and sort intents taken out of the text (when the rule parser is on); request filters and sort win. */
export const rules: SearchStep = {
  name: 'rules',
  run(s) {
    s.rules = s.ranking.rule_parser ? parseRules(s.normalized, s.ctx.rules, s.vocab.terms) : null;
    s.filters = { ...(s.rules?.filters as Record<string, FilterValue> | undefined), ...s.input.filters };
    s.sort = s.input.sort ?? s.rules?.sort ?? 'relevance';
    s.text = s.rules ? s.rules.rest : s.normalized;
  },
  trace: (s) => (s.rules ? { fired: s.rules.fired, rest: s.rules.rest } : { off: true }),
};
