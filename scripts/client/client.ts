import createClient from 'openapi-fetch';
import type { paths } from './api.gen.js';

export type { paths } from './api.gen.js';
export type ApiClient = ReturnType<typeof createClient<paths>>;

/** The typed API client (openapi-fetch over the generated types): paths, parameters, bodies and answers are checked at compile time. */
export function apiClient(baseUrl: string, key?: string): ApiClient {
  return createClient<paths>({ baseUrl, headers: key ? { authorization: `Bearer ${key}` } : {} });
}

/** The answer's data, or an Error that names the call, the status and the service's error body. */
export function must<T>(what: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data !== undefined && answer.response.ok) return answer.data;
  throw new Error(`${what} failed: ${answer.response.status} ${JSON.stringify(answer.error ?? null)}`);
}
