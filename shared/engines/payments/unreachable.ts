/**
 * True when a provider's call failed because the provider did not answer: a request that passed
 * its timeout (BILLING_PROVIDER_TIMEOUT_MS) or a connection that could not be made or broke. The
 * Stripe SDK reports both as StripeConnectionError (after its own retries); Paddle's requests are
 * fetch with AbortSignal.timeout (TimeoutError) and fail to connect as `fetch failed`. A provider
 * that answered (a refusal, a 5xx) is not unreachable.
 */
export function isProviderUnreachable(err: unknown): boolean {
  const e = err as { type?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return e.type === 'StripeConnectionError' || e.name === 'TimeoutError' || (e.name === 'TypeError' && e.message === 'fetch failed');
}
