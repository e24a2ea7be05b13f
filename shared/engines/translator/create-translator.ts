import type { Config } from '../../platform/config.js';
import { OpenAiTranslator } from './openai.translator.js';
import type { Translator } from './port.js';

/** The configured translator, or null when no provider is set (translation then queues items for people). */
export function createTranslator(config: Pick<Config, 'translation'>): Translator | null {
  const t = config.translation;
  if (!t.provider) return null;
  return new OpenAiTranslator({
    baseUrl: t.provider.baseUrl,
    apiKey: t.provider.apiKey,
    model: t.model,
    timeoutMs: t.timeoutMs,
    maxRetries: t.maxRetries,
    price: t.price,
  });
}
