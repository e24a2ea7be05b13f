import type { Knex } from 'knex';
import type { Config } from '../../platform/config.js';
import type { EmbedderSource } from './port.js';
import { CatalogEmbedderSource } from './catalog.embedder.js';
import { OpenAiEmbedderSource } from './openai.embedder.js';

/** The configured embedder source (EMBEDDER): the per-store catalog embedder by default, or an OpenAI-compatible server. */
export function createEmbedderSource(config: Config, db: Knex, onCost: (tenantId: string, micros: number) => Promise<void>): EmbedderSource {
  if (config.vectors.embedder === 'openai') {
    return new OpenAiEmbedderSource({
      baseUrl: config.openaiBaseUrl,
      apiKey: config.llm.apiKey,
      model: config.vectors.embeddingModel,
      batch: config.vectors.embeddingBatch,
      maxRetries: 3,
      timeoutMs: 30_000,
      pricePerMtok: config.vectors.embeddingPricePerMtok,
      onCost,
    });
  }
  return new CatalogEmbedderSource(db);
}
