import { attemptRewrite } from '../rewrite/apply.js';
import type { SearchStep } from './state.js';
import { replan } from './replan.js';
import { fallback } from './fallback.step.js';

/** ai=auto: a query the rewrite step left alone that found nothing matching every word gets one rewrite (zero results), and the query runs again with it. */
export const rewriteRetry: SearchStep = {
  name: 'rewrite-retry',
  async run(s, env) {
    if (s.ai.decision !== 'not_needed' || (s.result.total > 0 && !s.relaxed)) return;
    await attemptRewrite(s, env, ['zero_results']);
    if (!s.ai.used) return;
    await replan(s, env);
    await fallback.run(s, env);
  },
  trace: (s) => ({ decision: s.ai.decision, used: s.ai.used, reasons: s.ai.reasons }),
};
