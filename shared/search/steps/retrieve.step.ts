import type { SearchStep } from './state.js';

/** The engine's answer: total, the page, facet counts, and how many matches are strong. */
export const retrieve: SearchStep = {
  name: 'retrieve',
  async run(s, env) {
    s.result = await env.engine.search(s.query);
    s.relaxed = false;
  },
  trace: (s) => ({ engine: true, total: s.result.total, strong: s.result.strong }),
};
