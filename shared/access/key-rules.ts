import { AppError, type FieldError } from '../platform/errors.js';
import { DEFAULT_PUBLIC_SCOPES, DEFAULT_SECRET_SCOPES, PUBLIC_SCOPES, type Scope } from './scopes.js';
import type { KeyKind } from './key-format.js';
import type { ApiKeyRow } from './keys.repo.js';

/** Scopes a key gets: the defaults for its kind, or the asked ones if the kind may hold them. */
export function resolveScopes(kind: KeyKind, asked: Scope[] | null | undefined): string[] {
  if (asked == null) return kind === 'public' ? [...DEFAULT_PUBLIC_SCOPES] : [...DEFAULT_SECRET_SCOPES];
  if (kind === 'public') {
    const bad = asked.filter((s) => !PUBLIC_SCOPES.includes(s));
    if (bad.length) {
      throw invalid('scopes', 'scope_not_allowed', `public keys may only hold ${PUBLIC_SCOPES.join(', ')}; not ${bad.join(', ')}`);
    }
  }
  return [...new Set(asked)];
}

/**
 * allowed_origins only mean something for public keys, and a public key needs at least one: it is
 * refused from every origin not listed (spec 5.3), so a key with none could never be used.
 */
export function resolveOrigins(kind: KeyKind, origins: string[] | null | undefined): string[] {
  if (kind === 'secret') {
    if (origins?.length) throw invalid('allowed_origins', 'not_applicable', 'allowed_origins applies to public keys only');
    return [];
  }
  if (!origins) throw invalid('allowed_origins', 'required', 'a public key needs at least one allowed origin (browsers from any other origin are refused)');
  if (origins.length === 0)
    throw invalid('allowed_origins', 'too_short', 'a public key needs at least one allowed origin (browsers from any other origin are refused)');
  return [...new Set(origins)];
}

/**
 * A future instant within year 9999 UTC. A time written in 9999 with a negative offset is year
 * 10000 in UTC: Postgres stores it, but its ISO form ("+010000-...") is no RFC 3339 time, and
 * every answer naming the key (the key list included) failed.
 */
export function checkExpiry(expiresAt: string | null | undefined): Date | null {
  if (!expiresAt) return null;
  const at = new Date(expiresAt);
  if (at.getTime() <= Date.now()) throw invalid('expires_at', 'in_past', 'expires_at must be in the future');
  if (at.getUTCFullYear() > 9999) throw invalid('expires_at', 'too_large', 'expires_at must be at most 9999-12-31T23:59:59Z');
  return at;
}

export function assertLive(row: ApiKeyRow): void {
  if (row.revoked_at) throw new AppError('key_revoked', 409, 'this key is revoked');
  if (row.replaced_by) throw new AppError('key_already_rotated', 409, `this key was rotated; its successor is ${row.replaced_by}`);
}

/** Rotation is of an active key (spec 3.1): an expired one's successor would inherit its expiry and never work. */
export function assertRotatable(row: ApiKeyRow, now = Date.now()): void {
  assertLive(row);
  if (row.expires_at && new Date(row.expires_at).getTime() <= now) {
    throw new AppError('key_expired', 409, `this key expired at ${new Date(row.expires_at).toISOString()}; create a new key instead`);
  }
}

function invalid(field: string, code: string, message: string): AppError {
  const details: Array<FieldError & { in: string }> = [{ in: 'body', field, code, message }];
  return new AppError('validation_failed', 400, `invalid body: ${field}: ${message}`, details);
}
