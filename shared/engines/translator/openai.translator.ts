import type OpenAI from 'openai';
import { isOpenAiError, lazyOpenAi } from '../openai-sdk.js';
import { TranslatorError, type TranslateRequest, type TranslateResult, type Translator } from './port.js';

export interface OpenAiTranslatorOptions {
  baseUrl?: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  /** Retries inside one call, with exponential backoff; 429 honours Retry-After. */
  maxRetries: number;
  /** USD per million tokens. */
  price: { input: number; output: number };
}

/** Tokens the instructions cost per call (system message and JSON framing), for estimates. */
const PROMPT_TOKENS = 160;
const CHARS_PER_TOKEN = 3;

/**
 * Machine translation over any OpenAI-compatible chat-completions server (OpenAI, or a local
 * Ollama/vLLM through OPENAI_BASE_URL): several texts per call as JSON, structured JSON answer.
 */
export class OpenAiTranslator implements Translator {
  readonly name: string;
  private client: () => Promise<OpenAI>;

  constructor(private opts: OpenAiTranslatorOptions) {
    this.name = `openai:${opts.model}`;
    this.client = lazyOpenAi({
      baseURL: opts.baseUrl,
      // Local servers take any key; the SDK refuses to start without one.
      apiKey: opts.apiKey ?? 'none',
      timeout: opts.timeoutMs,
      maxRetries: opts.maxRetries,
    });
  }

  async translate(req: TranslateRequest): Promise<TranslateResult> {
    if (!req.texts.length) return { texts: new Map(), inputTokens: 0, outputTokens: 0, costMicros: 0 };
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      const client = await this.client();
      completion = await client.chat.completions.create(
        {
          model: this.opts.model,
          temperature: 0,
          messages: [
            { role: 'system', content: instructions(req.sourceLocale, req.targetLocale) },
            { role: 'user', content: JSON.stringify({ items: req.texts.map((t) => ({ id: t.id, text: t.text })) }) },
          ],
          response_format: { type: 'json_schema', json_schema: { name: 'translations', strict: true, schema: ANSWER_SCHEMA } },
        },
        { signal: req.signal },
      );
    } catch (err) {
      throw asTranslatorError(err);
    }
    const content = completion.choices[0]?.message?.content ?? '';
    const texts = parseAnswer(content);
    const inputTokens = completion.usage?.prompt_tokens ?? 0;
    const outputTokens = completion.usage?.completion_tokens ?? 0;
    return { texts, inputTokens, outputTokens, costMicros: Math.round(inputTokens * this.opts.price.input + outputTokens * this.opts.price.output) };
  }

  estimateCostMicros(chars: number, calls: number): number {
    const input = chars / CHARS_PER_TOKEN + calls * PROMPT_TOKENS;
    // Arabic and other non-Latin output takes more tokens than the English it comes from.
    const output = (chars / CHARS_PER_TOKEN) * 1.5;
    return Math.round(input * this.opts.price.input + output * this.opts.price.output);
  }
}

const ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['translations'],
  properties: {
    translations: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['id', 'text'], properties: { id: { type: 'string' }, text: { type: 'string' } } },
    },
  },
};

function instructions(source: string, target: string): string {
  return [
    `You translate e-commerce product catalog text from the language "${source}" into the language "${target}".`,
    'The user message is JSON: {"items":[{"id","text"}]}. Translate each text on its own.',
    'Placeholders such as {{P0}} stand for brand names, codes, numbers with units, links and HTML tags: copy each one exactly once, unchanged.',
    'Keep every number. Do not add explanations.',
    'Answer with JSON only: {"translations":[{"id","text"}]}, one entry per input id.',
  ].join('\n');
}

/** The answer's texts by id; tolerates a fenced code block around the JSON. */
export function parseAnswer(content: string): Map<string, string> {
  const json = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new TranslatorError('bad_response', 'the provider did not answer with JSON', true);
  }
  const list = (parsed as { translations?: unknown })?.translations;
  if (!Array.isArray(list)) throw new TranslatorError('bad_response', 'the provider answer has no "translations" list', true);
  const out = new Map<string, string>();
  for (const entry of list) {
    if (entry && typeof entry.id === 'string' && typeof entry.text === 'string') out.set(entry.id, entry.text);
  }
  return out;
}

function asTranslatorError(err: unknown): TranslatorError {
  if (err instanceof TranslatorError) return err;
  if (isOpenAiError(err, 'APIConnectionTimeoutError')) return new TranslatorError('timeout', 'the translation provider timed out', true);
  if (isOpenAiError(err, 'RateLimitError')) return new TranslatorError('rate_limited', 'the translation provider kept answering 429 (rate limited)', true);
  if (isOpenAiError(err, 'APIError')) {
    const status = err.status ?? 0;
    const retryable = !status || status >= 500 || status === 408 || status === 409;
    return new TranslatorError('provider', `the translation provider answered ${status || 'with a connection error'}: ${err.message}`.slice(0, 500), retryable);
  }
  return new TranslatorError('provider', `translation call failed: ${(err as Error)?.message ?? String(err)}`, true);
}
