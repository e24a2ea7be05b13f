import { attemptRewrite } from '../rewrite/apply.js';
import { rewriteReasons } from '../rewrite/rewrite-reasons.js';
import type { SearchStep } from './state.js';

/**
 * AI query rewriting, before rules and synonyms read the text. `off` never asks; `auto` asks only
 * when the store has it on and the query looks like one a model reads better (rewrite-reasons.ts);
 * `on` always asks. The budget and the cache apply either way; without a provider nothing is asked.
 */
export const rewrite: SearchStep = {
  name: 'rewrite',
  async run(s, env) {
    const mode = s.input.ai ?? 'auto';
    s.ai = { mode, used: false, cached: false, decision: 'off', reasons: [], filters: {}, sort: null };
    if (mode === 'off') return;
    if (!env.rewriter.configured) {
      s.ai.decision = 'no_provider';
      s.ai.detail = 'no LLM provider configured (set OPENAI_BASE_URL and/or OPENAI_API_KEY)';
      return;
    }
    if (mode === 'auto' && !s.ranking.ai_rewrite) {
      s.ai.decision = 'disabled_for_store';
      return;
    }
    const reasons = mode === 'on' ? ['ai_on'] : rewriteReasons(s.normalized, s.text, s.vocab, !!s.rules?.filters.price);
    if (!reasons.length) {
      s.ai.decision = 'not_needed';
      return;
    }
    await attemptRewrite(s, env, reasons);
  },
  trace: (s) => ({ ...s.ai }),
};
