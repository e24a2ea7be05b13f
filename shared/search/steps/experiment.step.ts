import { resolveRanking } from '../ranking-config.js';
import type { SearchStep } from './state.js';

/** The session's variant of the running experiment (assigned before the cache lookup): its ranking settings apply over the store's; a dashboard override still wins. */
export const experiment: SearchStep = {
  name: 'experiment',
  run(s) {
    const a = s.assignment;
    if (a?.ranking) s.ranking = resolveRanking(s.ctx.ranking, a.ranking, s.input.override);
  },
  trace: (s) =>
    s.assignment
      ? { experiment_id: s.assignment.experiment_id, variant: s.assignment.variant, ranking: s.assignment.ranking, rule_ids: s.assignment.ruleIds }
      : { in_experiment: false, reason: s.merch.experiment ? 'no_session' : 'none_running' },
};
