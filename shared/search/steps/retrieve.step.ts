import type { SearchState, SearchStep, StepEnv } from './state.js';
import { FEW_STRONG } from './fallback.step.js';

/**
 * The engine's answer: total, the page, facet counts, and how many matches are strong. A query of
 * several words with fewer than FEW_STRONG strong matches goes on to the any-word fallback, which
 * counts the facets over its own matches: the engine leaves them out here (the fallback step counts
 * them when it keeps this answer after all).
 */
export const retrieve: SearchStep = {
  name: 'retrieve',
  async run(s, env) {
    await retrieveOnce(s, env, s.plan.terms.length > 1 ? FEW_STRONG : undefined);
  },
  trace: (s) => ({ engine: true, total: s.result.total, strong: s.result.strong, facets_deferred: s.result.facetsDeferred ?? false }),
};

/** The engine query as planned, every facet counted (replan: no fallback step follows it). */
export async function retrieveOnce(s: SearchState, env: StepEnv, deferFacetsBelow?: number): Promise<void> {
  s.result = await env.engine.search(deferFacetsBelow ? { ...s.query, deferFacetsBelow } : s.query);
  s.relaxed = false;
}
