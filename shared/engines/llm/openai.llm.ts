import OpenAI from 'openai';
import { LlmFailure, type Llm, type LlmAnswer, type LlmRequest } from './port.js';

export interface OpenAiLlmOptions {
  baseUrl?: string;
  apiKey?: string;
  model: string;
  /** USD per million tokens (= micro-USD per token). */
  priceInput: number;
  priceOutput: number;
}

/** Below this much time left, a retry could not finish: give up instead. */
const MIN_RETRY_MS = 40;

const retryable = (err: unknown) =>
  err instanceof OpenAI.APIConnectionError || (err instanceof OpenAI.APIError && (err.status === 429 || (err.status ?? 0) >= 500));
/** The request itself was refused (400, 422): the same request is refused again. Keys, permissions and unknown models are the provider's setup, not the query's. */
const refused = (err: unknown) => err instanceof OpenAI.APIError && (err.status === 400 || err.status === 422);

/**
 * OpenAI-compatible chat completions (`OPENAI_BASE_URL` points it at any compatible server, local
 * ones included) with structured JSON output. One hard deadline covers the call: the SDK's own
 * retries are off, and a 429, 5xx or dropped connection is retried only while time is left.
 */
export class OpenAiLlm implements Llm {
  readonly name = 'openai';
  readonly model: string;
  private client: OpenAI;

  constructor(private opts: OpenAiLlmOptions) {
    this.model = opts.model;
    // A local server may need no key; the SDK insists on one.
    this.client = new OpenAI({ apiKey: opts.apiKey || 'none', baseURL: opts.baseUrl, maxRetries: 0 });
  }

  async completeJson(req: LlmRequest): Promise<LlmAnswer> {
    const deadline = Date.now() + req.timeoutMs;
    for (let attempt = 1; ; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0) throw new LlmFailure('timeout', `no answer within ${req.timeoutMs} ms`);
      try {
        const res = await this.client.chat.completions.create(
          {
            model: this.model,
            temperature: 0,
            messages: [
              { role: 'system', content: req.system },
              { role: 'user', content: req.user },
            ],
            response_format: { type: 'json_schema', json_schema: { name: req.schemaName, schema: req.schema, strict: true } },
          },
          { timeout: left, maxRetries: 0 },
        );
        const inputTokens = res.usage?.prompt_tokens ?? 0;
        const outputTokens = res.usage?.completion_tokens ?? 0;
        const costMicros = Math.ceil(inputTokens * this.opts.priceInput + outputTokens * this.opts.priceOutput);
        const content = res.choices[0]?.message?.content;
        let json: unknown;
        try {
          json = content ? JSON.parse(content) : undefined;
        } catch {
          json = undefined;
        }
        if (json === undefined) throw new LlmFailure('error', 'the model answered no JSON', costMicros, true);
        return { json, model: res.model ?? this.model, inputTokens, outputTokens, costMicros, attempts: attempt };
      } catch (err) {
        if (err instanceof LlmFailure) throw err;
        if (err instanceof OpenAI.APIConnectionTimeoutError || Date.now() >= deadline) throw new LlmFailure('timeout', `no answer within ${req.timeoutMs} ms`);
        const wait = Math.min(25 * attempt, (deadline - Date.now()) / 4);
        if (!retryable(err) || deadline - Date.now() - wait < MIN_RETRY_MS) {
          throw new LlmFailure('error', err instanceof Error ? err.message : String(err), 0, refused(err));
        }
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
}
