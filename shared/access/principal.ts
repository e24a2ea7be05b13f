import type { ApiKeyRow } from './keys.repo.js';
import type { SessionAuthRow } from './sessions.repo.js';
import { SCOPES } from './scopes.js';

export type PrincipalKind = 'public' | 'secret' | 'session';

/** Who is calling: resolved from a key or a dashboard session, cached in process. */
export interface Principal {
  tenantId: string;
  kind: PrincipalKind;
  /** Key id or session id; rate limits and last-used times hang off it. */
  id: string;
  scopes: ReadonlySet<string>;
  allowedOrigins: readonly string[];
  expiresAt: number | null;
  revokedAt: number | null;
}

const ALL_SCOPES = new Set<string>(SCOPES);

/** A key row as the principal the auth cache holds (null: no such key). */
export function fromKey(row: ApiKeyRow | undefined): Principal | null {
  if (!row) return null;
  return {
    tenantId: row.tenant_id,
    kind: row.kind,
    id: row.id,
    scopes: new Set(row.scopes),
    allowedOrigins: row.allowed_origins,
    expiresAt: row.expires_at ? row.expires_at.getTime() : null,
    revokedAt: row.revoked_at ? row.revoked_at.getTime() : null,
  };
}

/**
 * A dashboard session as a principal: every scope its root key holds now (every scope for a
 * session the CLI started), no origins; revoked when anything in its lineage is, and never
 * valid past its root key's expiry.
 */
export function fromSession(row: SessionAuthRow | undefined): Principal | null {
  if (!row) return null;
  const keyExpiry = row.key_expires_at ? row.key_expires_at.getTime() : Infinity;
  return {
    tenantId: row.tenant_id,
    kind: 'session',
    id: row.id,
    scopes: row.key_scopes ? new Set(row.key_scopes.filter((s) => ALL_SCOPES.has(s))) : ALL_SCOPES,
    allowedOrigins: [],
    expiresAt: Math.min(row.expires_at.getTime(), keyExpiry),
    revokedAt: row.lineage_revoked_at ? row.lineage_revoked_at.getTime() : null,
  };
}
