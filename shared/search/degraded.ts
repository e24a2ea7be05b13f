import type { SearchState } from './steps/index.js';

/**
 * Hybrid step reasons meaning the embedding provider, the vector store or the plan check failed this
 * time, or the provider was skipped while its breaker cools down (not that the store has no vectors).
 */
const VECTOR_FAILURES: ReadonlySet<string | undefined> = new Set([
  'embedder failed',
  'embed timeout',
  'embedder cooling down',
  'vector store failed',
  'plan check failed',
]);
/** Rewrite decisions meaning the model failed this time (LlmFailure kinds, or another error: Redis, the answer check) or was skipped while its breaker cools down. */
const REWRITE_FAILURES: ReadonlySet<string> = new Set(['timeout', 'error', 'cooling_down']);

/** Rerank reasons meaning the store's click statistics, or the catalog vectors of click feedback, could not be read this time. */
const RERANK_FAILURES: ReadonlySet<string | undefined> = new Set(['click statistics failed', 'vector store failed']);

/**
 * Whether a provider failed for this search, so its answer lacks a part it would have had: the
 * query embedding or the vector store (the answer stayed lexical), the AI rewrite (the plain
 * search answered) or the click statistics (the page kept its order). Such an answer is given but
 * not cached: the next search asks again.
 */
export function degraded(s: SearchState): boolean {
  return VECTOR_FAILURES.has(s.hybrid?.reason) || (s.ai !== undefined && REWRITE_FAILURES.has(s.ai.decision)) || RERANK_FAILURES.has(s.rerank?.reason);
}
