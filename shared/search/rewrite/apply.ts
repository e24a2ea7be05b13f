import type { SearchState, StepEnv } from '../steps/state.js';
import { LlmFailure } from '../../engines/llm/port.js';
import { checkRewrite, type CheckedRewrite } from './rewrite-checks.js';
import { isRememberedFailure, ProviderCoolingDown } from './rewriter.js';
import { catalogVersion } from './rewrite-reasons.js';

/**
 * Asks for a rewrite (the cache first, then the model within budget and timeout) and applies it.
 * Any failure leaves the search as it was: the plain search answers in the same request. A
 * permanent failure (the model refused the request, or answered no rewrite) is remembered for the
 * query, so a repeat does not ask again (`failed_recently`); a transient one is not.
 */
export async function attemptRewrite(s: SearchState, env: StepEnv, reasons: string[]): Promise<void> {
  const r = env.rewriter;
  s.ai.reasons = reasons;
  let key: string | undefined;
  try {
    key = r.cacheKey(s.tenantId, catalogVersion(s.vocab, s.ctx.mappingVersion), s.lang, s.normalized);
    const held = await r.cached(key);
    if (held && isRememberedFailure(held)) {
      s.ai.decision = 'failed_recently';
      s.ai.detail = held.failed;
      return;
    }
    let checked = held;
    if (checked) {
      s.ai.cached = true;
      s.ai.decision = 'cached';
    } else {
      const budget = await r.budget.allows(s.tenantId);
      if (!budget.ok) {
        s.ai.decision = 'budget_exhausted';
        s.ai.detail = `spent ${budget.spent} of ${budget.limit} micro-USD this month`;
        return;
      }
      const { rewrite, costMicros } = await r.ask(s.tenantId, s.input.q, s.lang, [...s.ctx.facetNames]);
      s.ai.cost_micros = costMicros;
      checked = await checkRewrite(rewrite, s.ctx, env.engine);
      await r.store(key, checked);
      s.ai.decision = 'applied';
    }
    apply(s, checked);
  } catch (err) {
    s.ai.decision = err instanceof LlmFailure || err instanceof ProviderCoolingDown ? err.kind : 'error';
    s.ai.detail = err instanceof Error ? err.message : String(err);
    s.ai.cached = false;
    if (key && err instanceof LlmFailure && err.permanent) await r.rememberFailure(key, s.ai.detail).catch(() => undefined);
  }
}

/** The filters a rewrite sets besides mapped attributes. */
const OWN_FILTERS = new Set(['brand', 'category', 'price']);

/**
 * The rewrite's text, filters and sort over the parsed ones; the request's own filters and sort
 * always win. An attribute no longer mapped (an answer checked under another mapping) is dropped
 * as the checks would: a filter on it would match nothing.
 */
function apply(s: SearchState, c: CheckedRewrite): void {
  const dropped = [...c.dropped];
  const filters: CheckedRewrite['filters'] = {};
  for (const [name, value] of Object.entries(c.filters)) {
    if (!OWN_FILTERS.has(name) && !s.ctx.facetNames.has(name)) dropped.push({ field: `attributes.${name}`, value, why: 'unknown_attribute' });
    else if (name in s.input.filters) dropped.push({ field: name, value, why: 'request_filter_wins' });
    else filters[name] = value;
  }
  s.ai.dropped = dropped;
  if (!c.text && !Object.keys(filters).length) {
    s.ai.decision = 'empty_rewrite';
    return;
  }
  s.ai.used = true;
  s.ai.text = c.text;
  s.ai.filters = filters;
  s.ai.sort = c.sort;
  s.text = c.text;
  s.filters = { ...s.filters, ...filters, ...s.input.filters };
  s.sort = s.input.sort ?? c.sort ?? s.sort;
}
