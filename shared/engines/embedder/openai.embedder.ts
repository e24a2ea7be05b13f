import type OpenAI from 'openai';
import { lazyOpenAi } from '../openai-sdk.js';
import { normalize, type EmbedCall, type Embedder, type EmbedderSource } from './port.js';

export interface OpenAiEmbedderOptions {
  baseUrl?: string;
  apiKey?: string;
  model: string;
  /** Texts per /embeddings call. */
  batch: number;
  /** Retries per call with exponential backoff (the SDK's; 429 honours Retry-After). */
  maxRetries: number;
  timeoutMs: number;
  /** USD per million input tokens. */
  pricePerMtok: number;
  /** Adds a store's provider cost (micro-USD) to its `ai_cost_micros_usd` usage. */
  onCost(tenantId: string, micros: number): Promise<void>;
}

/**
 * Embeddings from any OpenAI-compatible `/embeddings` server (OpenAI, or a local Ollama/vLLM via
 * OPENAI_BASE_URL): `batch` texts per call, retries with backoff, each call's token cost counted
 * to the store. One shared model for every store: id `openai-<model>`; no training.
 */
export class OpenAiEmbedderSource implements EmbedderSource {
  readonly kind = 'openai' as const;
  readonly id: string;
  private client: () => Promise<OpenAI>;
  private dims: number | null = null;

  constructor(private opts: OpenAiEmbedderOptions) {
    this.id = `openai-${opts.model.replace(/[^A-Za-z0-9._-]/g, '-')}`;
    this.client = lazyOpenAi({ baseURL: opts.baseUrl, apiKey: opts.apiKey ?? 'none', maxRetries: opts.maxRetries, timeout: opts.timeoutMs });
  }

  async byId(tenantId: string, embedderId: string, call?: EmbedCall): Promise<Embedder | null> {
    if (embedderId !== this.id) return null;
    return this.forTenant(tenantId, call);
  }

  /** No training: learns the model's dimensions with one short call the first time. */
  async prepare(tenantId: string): Promise<Embedder> {
    return this.forTenant(tenantId);
  }

  private async forTenant(tenantId: string, call?: EmbedCall): Promise<Embedder> {
    if (this.dims === null) this.dims = (await this.call(tenantId, ['dimensions'], call))[0].length;
    return { id: this.id, dims: this.dims, embed: (texts, o) => this.embed(tenantId, texts, o) };
  }

  private async embed(tenantId: string, texts: string[], call?: EmbedCall): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.opts.batch) out.push(...(await this.call(tenantId, texts.slice(i, i + this.opts.batch), call)));
    return out;
  }

  private async call(tenantId: string, texts: string[], call?: EmbedCall): Promise<Float32Array[]> {
    // The API refuses empty strings; an empty product text embeds as a single space.
    const input = texts.map((t) => (t.trim() ? t : ' '));
    // An aborted signal ends the request in flight (the SDK aborts its fetch and clears its own timer).
    const client = await this.client();
    const res = await client.embeddings.create(
      { model: this.opts.model, input, encoding_format: 'float' },
      { signal: call?.signal, maxRetries: call?.retries ?? this.opts.maxRetries },
    );
    const tokens = res.usage?.prompt_tokens ?? 0;
    // USD per million tokens is micro-USD per token.
    await this.opts.onCost(tenantId, tokens * this.opts.pricePerMtok);
    return [...res.data].sort((a, b) => a.index - b.index).map((d) => normalize(Float32Array.from(d.embedding as number[])));
  }
}
