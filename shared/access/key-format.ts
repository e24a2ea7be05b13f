import { randomSecret, sha256 } from '../platform/ids.js';

export type KeyKind = 'public' | 'secret';

const KIND_PREFIX: Record<KeyKind, string> = { public: 'pk_live_', secret: 'sk_live_' };
export const SESSION_PREFIX = 'ds_';

/** A new full key, e.g. `sk_live_<32 url-safe chars>`, with what is stored of it. */
export function mintKey(kind: KeyKind): { key: string; hash: string; prefix: string; last4: string } {
  const key = KIND_PREFIX[kind] + randomSecret(24);
  return { key, hash: hashKey(key), prefix: key.slice(0, 12), last4: key.slice(-4) };
}

export function mintSessionToken(): { token: string; hash: string } {
  const token = SESSION_PREFIX + randomSecret(32);
  return { token, hash: hashKey(token) };
}

/** Keys are long random strings, so a plain SHA-256 is enough (no salt or slow hash needed). */
export function hashKey(key: string): string {
  return sha256(key);
}

/** Cheap shape check before any lookup: rejects junk without touching caches. */
export function looksLikeCredential(token: string): boolean {
  return token.length >= 20 && token.length <= 100 && /^(pk_live_|sk_live_|ds_)[A-Za-z0-9_-]+$/.test(token);
}
