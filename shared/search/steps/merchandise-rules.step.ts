import { resolveRules } from '../../merchandising/index.js';
import { ruleFilterProblem } from '../search-checks.js';
import type { SearchStep } from './state.js';

/**
 * The merchandising rules whose patterns match the normalized query (in its language), resolved in
 * the documented conflict order (merchandising/resolve.ts); their filters are added where the
 * shopper set none of that name. Memory only: the rules are compiled per tenant.
 */
export const merchandiseRules: SearchStep = {
  name: 'merchandise-rules',
  run(s) {
    const candidates = s.merch.rules.size ? s.merch.rules.candidates(s.normalized, s.lang) : [];
    if (!candidates.length) {
      s.merchPlan = null;
      return;
    }
    s.merchPlan = resolveRules(candidates, {
      filters: s.filters,
      enabled: s.ranking.merch_rules,
      disabledIds: new Set(s.ranking.disabled_rule_ids),
      forcedIds: new Set(s.assignment?.ruleIds ?? []),
      now: Date.now(),
      filterProblem: ruleFilterProblem(s.ctx),
    });
    for (const [name, value] of Object.entries(s.merchPlan.addFilters)) if (!(name in s.filters)) s.filters[name] = value;
  },
  trace: (s) => ({
    rules: s.merch.rules.size,
    matched: s.merchPlan?.trace ?? [],
    ...(s.merchPlan ? { pins: s.merchPlan.pins, hides: [...s.merchPlan.hides], boosts: s.merchPlan.boosts, add_filters: s.merchPlan.addFilters } : {}),
  }),
};
