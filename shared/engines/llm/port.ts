/**
 * The LLM port: one chat completion whose answer is JSON of a given schema. Query rewriting (and
 * later translation) sits above it; adapters speak a provider's wire format.
 */
export interface LlmRequest {
  system: string;
  user: string;
  /** Structured output: the answer must be JSON of this schema (JSON Schema, strict). */
  schemaName: string;
  schema: Record<string, unknown>;
  /** Hard limit for the whole call, retries included. */
  timeoutMs: number;
}

export interface LlmAnswer {
  json: unknown;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Cost of the call in micro-USD (tokens times the configured prices). */
  costMicros: number;
  attempts: number;
}

/**
 * Why a call gave no answer: `timeout` (the hard limit passed), `error` (the provider failed or
 * answered no JSON). `permanent`: the provider answered, and the same request would get the same
 * answer (a 400, an answer that is not the schema); otherwise (timeouts, 429, 5xx, connections,
 * keys) asking again may succeed.
 */
export class LlmFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'error',
    message: string,
    readonly costMicros = 0,
    readonly permanent = false,
  ) {
    super(message);
  }
}

export interface Llm {
  readonly name: string;
  readonly model: string;
  completeJson(req: LlmRequest): Promise<LlmAnswer>;
}
