import type { RateLimiter } from './rate-limiter.js';
import { looksLikeCredential } from './key-format.js';

export interface AuthThrottleLimits {
  /** Failed authentications per client address per minute. */
  perAddress: number;
  /** Failed authentications per key prefix (the first 12 characters, as key lists show them) per minute. */
  perPrefix: number;
}

/**
 * Failed authentication is throttled by client address and by key prefix: past the limit, an
 * unknown credential is answered 429 without a database lookup until the minute ends. Counts
 * live in a minute-window RateLimiter (local, added to Redis every 100 ms), so no request waits
 * on Redis. Credentials already known valid never pass through here.
 */
export class AuthThrottle {
  constructor(
    private counter: RateLimiter,
    private limits: AuthThrottleLimits,
  ) {}

  /** Seconds this client must wait before another unknown credential is looked up, or 0. */
  wait(address: string, token: string, now = Date.now()): number {
    const prefix = prefixOf(token);
    return Math.max(this.counter.over(`a:${address}`, this.limits.perAddress, now), prefix ? this.counter.over(`p:${prefix}`, this.limits.perPrefix, now) : 0);
  }

  failed(address: string, token: string, now = Date.now()): void {
    this.counter.add(`a:${address}`, now);
    const prefix = prefixOf(token);
    if (prefix) this.counter.add(`p:${prefix}`, now);
  }
}

/** The part of a credential shown in key lists (and so known to more people than its owner). */
function prefixOf(token: string): string | null {
  if (!looksLikeCredential(token)) return null;
  return token.slice(0, 12);
}
