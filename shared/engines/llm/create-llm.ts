import type { Config } from '../../platform/config.js';
import { OpenAiLlm } from './openai.llm.js';
import type { Llm } from './port.js';

/** The configured LLM, or null when no provider is configured (neither OPENAI_BASE_URL nor OPENAI_API_KEY). */
export function createLlm(config: Config): Llm | null {
  const ai = config.llm;
  if (!config.openaiBaseUrl && !ai.apiKey) return null;
  return new OpenAiLlm({ baseUrl: config.openaiBaseUrl, apiKey: ai.apiKey, model: ai.model, priceInput: ai.priceInput, priceOutput: ai.priceOutput });
}
