import type { Redis } from 'ioredis';
import { sha256 } from '../../platform/ids.js';
import { LlmFailure, type Llm, type LlmAnswer, type LlmRequest } from '../../engines/llm/port.js';
import type { FilterValue } from '../../engines/lexical/port.js';
import { Breaker } from '../../platform/breaker.js';
import type { AiBudget } from './ai-budget.js';
import type { CheckedRewrite, Sort } from './rewrite-checks.js';
import { ModelRewrite, REWRITE_SCHEMA, REWRITE_SYSTEM, rewriteUser, type ModelRewriteT } from './rewrite-prompt.js';

/** What the rewrite steps decided for one search (the debug trace shows it). */
export interface RewriteOutcome {
  mode: 'auto' | 'on' | 'off';
  used: boolean;
  cached: boolean;
  /** off, no_provider, disabled_for_store, not_needed, budget_exhausted, cooling_down, failed_recently, timeout, error, applied, cached. */
  decision: string;
  /** Why a rewrite could help (auto): long_query, conversational, price_words, use_case, unknown_words, zero_results. */
  reasons: string[];
  filters: Record<string, FilterValue>;
  sort: Sort | null;
  text?: string;
  dropped?: CheckedRewrite['dropped'];
  detail?: string;
  cost_micros?: number;
}

export interface RewriterOptions {
  timeoutMs: number;
  cacheTtlS: number;
  /** How long a permanent failure for a query is remembered (default 10 min). */
  failureTtlS?: number;
  prefix: string;
}

/** What the cache holds for a query besides a checked rewrite: the model's permanent failure (a refusal, an answer that is not a rewrite). */
export interface RememberedFailure {
  failed: string;
}

export const isRememberedFailure = (v: CheckedRewrite | RememberedFailure): v is RememberedFailure => 'failed' in v;

/** Not asked: the provider failed too often in a row and its breaker is cooling down. */
export class ProviderCoolingDown extends Error {
  readonly kind = 'cooling_down';
}

/**
 * The AI rewrite's outside parts: the model (null when no provider is configured), the answer
 * cache per store, normalized query and catalog version (Redis, shared by every API process), and
 * the store's monthly budget. Whether to ask, and what to keep of an answer, is the steps' part.
 * A provider that keeps failing (timeouts, errors other than a refused request) is not asked for a
 * while (`breaker`, per process): searches meanwhile answer plainly without waiting on it.
 */
export class Rewriter {
  constructor(
    private llm: Llm | null,
    private redis: Pick<Redis, 'get' | 'set'>,
    readonly budget: AiBudget,
    private opts: RewriterOptions,
    private breaker = new Breaker(),
  ) {}

  get configured(): boolean {
    return this.llm !== null;
  }

  cacheKey(tenantId: string, catalogVersion: string, lang: string, normalized: string): string {
    return `${this.opts.prefix}:ai-rewrite:${tenantId}:${catalogVersion}:${sha256(`${lang}\u0000${normalized}`).slice(0, 32)}`;
  }

  /** The query's checked rewrite, or its remembered permanent failure: one key, one read per search. */
  async cached(key: string): Promise<CheckedRewrite | RememberedFailure | null> {
    const raw = await this.redis.get(key);
    return raw ? (JSON.parse(raw) as CheckedRewrite | RememberedFailure) : null;
  }

  async store(key: string, value: CheckedRewrite): Promise<void> {
    await this.redis.set(key, JSON.stringify(value), 'EX', this.opts.cacheTtlS);
  }

  /** A permanent failure (LlmFailure.permanent) for the query: a repeat within `failureTtlS` does not ask the model. Transient ones are never remembered. */
  async rememberFailure(key: string, detail: string): Promise<void> {
    const value: RememberedFailure = { failed: detail };
    await this.redis.set(key, JSON.stringify(value), 'EX', this.opts.failureTtlS ?? 600);
  }

  /** Asks the model within the hard timeout; the cost (when the provider reported tokens) is added to the store's spend. */
  async ask(tenantId: string, query: string, lang: string, attributes: string[]): Promise<{ rewrite: ModelRewriteT; costMicros: number }> {
    if (!this.llm) throw new LlmFailure('error', 'no provider configured');
    if (!this.breaker.allow()) throw new ProviderCoolingDown('the AI provider failed too often in a row: not asked while it cools down');
    let costMicros = 0;
    try {
      const answer = await this.complete(this.llm, {
        system: REWRITE_SYSTEM,
        user: rewriteUser(query, lang, attributes, null),
        schemaName: 'query_rewrite',
        schema: REWRITE_SCHEMA as unknown as Record<string, unknown>,
        timeoutMs: this.opts.timeoutMs,
      });
      costMicros = answer.costMicros;
      const parsed = ModelRewrite.safeParse(answer.json);
      if (!parsed.success) throw new LlmFailure('error', "the model's JSON is not a rewrite", costMicros, true);
      return { rewrite: parsed.data, costMicros };
    } catch (err) {
      costMicros ||= err instanceof LlmFailure ? err.costMicros : 0;
      throw err;
    } finally {
      if (costMicros) await this.budget.add(tenantId, costMicros).catch(() => undefined);
    }
  }

  /** One call the breaker let through, its outcome told to the breaker: a provider that answered (even a refusal) is up. */
  private async complete(llm: Llm, req: LlmRequest): Promise<LlmAnswer> {
    try {
      const answer = await llm.completeJson(req);
      this.breaker.success();
      return answer;
    } catch (err) {
      if (err instanceof LlmFailure && err.permanent) this.breaker.success();
      else this.breaker.failure();
      throw err;
    }
  }
}
