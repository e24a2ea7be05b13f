import type OpenAI from 'openai';
import type { ClientOptions } from 'openai';

/**
 * The `openai` package, loaded on first use: a quarter to a third of a second to import and about
 * 13 MB of a process's memory, which a process whose configuration never calls an
 * OpenAI-compatible server (the built-in defaults) never pays. The embedder, LLM and translator
 * adapters make their clients through this.
 */
let loading: Promise<typeof OpenAI> | undefined;
/** The SDK once some client was made: an error can only be one of its classes after that. */
let loaded: typeof OpenAI | undefined;

/** A client made on the first call (the SDK loaded then), the same one on every later call. */
export function lazyOpenAi(options: ClientOptions): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined;
  return () => {
    loading ??= import('openai').then((m) => (loaded = m.default));
    return (client ??= loading.then((Sdk) => new Sdk(options)));
  };
}

type ErrorClass = 'APIError' | 'APIConnectionError' | 'APIConnectionTimeoutError' | 'RateLimitError';

/** Whether `err` is an instance of the SDK's error class `name` (never before the SDK loaded). */
export function isOpenAiError<K extends ErrorClass>(err: unknown, name: K): err is InstanceType<(typeof OpenAI)[K]> {
  return loaded !== undefined && err instanceof loaded[name];
}
