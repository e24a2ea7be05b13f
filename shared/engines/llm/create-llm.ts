import type { Config } from '../../platform/config.js';
import type { Llm, LlmAnswer, LlmRequest } from './port.js';

/**
 * The configured LLM, or null when no provider is configured (neither OPENAI_BASE_URL nor
 * OPENAI_API_KEY). The adapter (and the `openai` package, about 0.35 s to load) is imported in the
 * background only when a provider is configured: no start-up cost without one, and no first call
 * that waits for the import.
 */
export function createLlm(config: Config): Llm | null {
  const ai = config.llm;
  if (!config.openaiBaseUrl && !ai.apiKey) return null;
  const adapter: Promise<Llm> = import('./openai.llm.js').then(
    ({ OpenAiLlm }) =>
      new OpenAiLlm({
        baseUrl: config.openaiBaseUrl,
        apiKey: ai.apiKey,
        model: ai.model,
        priceInput: ai.priceInput,
        priceOutput: ai.priceOutput,
      }),
  );
  adapter.catch(() => undefined);
  return {
    name: 'openai',
    model: ai.model,
    async completeJson(req: LlmRequest): Promise<LlmAnswer> {
      return (await adapter).completeJson(req);
    },
  };
}
