import type { SearchState } from './steps/index.js';

/** Hybrid step reasons meaning the embedding provider failed this time (not that the store has no vectors). */
const EMBED_FAILURES: ReadonlySet<string | undefined> = new Set(['embedder failed', 'embed timeout']);
/** Rewrite decisions meaning the model failed this time: LlmFailure kinds, or another error (Redis, the answer check). */
const REWRITE_FAILURES: ReadonlySet<string> = new Set(['timeout', 'error']);

/**
 * Whether a provider failed for this search, so its answer lacks a part it would have had: the
 * query embedding (the answer stayed lexical) or the AI rewrite (the plain search answered). Such
 * an answer is given but not cached: the next search asks the provider again.
 */
export function degraded(s: SearchState): boolean {
  return EMBED_FAILURES.has(s.hybrid?.reason) || (s.ai !== undefined && REWRITE_FAILURES.has(s.ai.decision));
}
