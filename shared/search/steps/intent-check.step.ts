import { parseRules } from '../rule-parser.js';
import type { SearchStep } from './state.js';
import { replan, saveQueryState } from './replan.js';

const NO_TERMS = { brands: new Map<string, string>(), colors: new Map<string, string>(), colorFacet: null };

/**
 * A brand or colour the rule parser read into a filter that leaves nothing ("red dress" read as the
 * brand RED) is dropped when the query with those words back as words finds something; the trace
 * says which. Price and sort intents stay: showing dearer products than asked would not be what the
 * shopper said. Explicit request filters are never touched.
 */
export const intentCheck: SearchStep = {
  name: 'intent-check',
  async run(s, env) {
    if (s.result.total > 0 || !s.rules || s.ai?.used) return;
    const fired = s.rules.fired.filter((f) => f.rule === 'brand' || f.rule === 'color');
    const names = [...new Set(fired.map((f) => (f.rule === 'brand' ? 'brand' : s.ctx.rules.colorFacet)))].filter(
      (n): n is string => !!n && !(n in s.input.filters),
    );
    if (!names.length) return;
    const restore = saveQueryState(s);
    s.text = parseRules(s.normalized, NO_TERMS).rest;
    s.filters = Object.fromEntries(Object.entries(s.filters).filter(([n]) => !names.includes(n)));
    await replan(s, env);
    if (s.result.total === 0) restore();
    else s.droppedIntents = fired;
  },
  trace: (s) => ({ dropped: s.droppedIntents ?? [] }),
};
