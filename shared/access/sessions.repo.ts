import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';
import { AppError } from '../platform/errors.js';
import { mintSessionToken } from './key-format.js';

export interface SessionRow {
  id: string;
  tenant_id: string;
  hash: string;
  created_by: string;
  /** The key that minted it (null for a session minted by a session, or by the CLI). */
  parent_key_id: string | null;
  /** The session that minted it. */
  parent_session_id: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

/**
 * A session as authentication reads it: with the authority of the key at the root of its lineage
 * (the key that minted it, or minted the session that minted it...), as that key is now.
 */
export interface SessionAuthRow extends SessionRow {
  /** The root key's current scopes; null for a lineage the operator's CLI started (no key: every scope). */
  key_scopes: string[] | null;
  /** The earliest revocation along the lineage, this session's and the root key's included. */
  lineage_revoked_at: Date | null;
  /** The root key's expiry (null: none, or no key). */
  key_expires_at: Date | null;
}

/** Who mints a session: a key, a session, or the operator's CLI (no parent). */
export type SessionParent = { keyId: string } | { sessionId: string } | null;

/**
 * Ends the sessions `parent` minted, and the sessions those minted, in `trx`: revoked now, or cut
 * to expire by `notAfter` (a rotated key's end of grace). Returns their token hashes, for the
 * auth caches to drop.
 */
export async function endSessionsMintedBy(
  trx: Knex,
  parent: { keyId: string } | { sessionId: string },
  end: { revoke: true } | { notAfter: Knex.Raw | Date },
): Promise<string[]> {
  const set = 'revoke' in end ? trx.raw('revoked_at = now()') : trx.raw('expires_at = least(expires_at, ?)', [end.notAfter]);
  const res = await trx.raw(`${minted(parent)} UPDATE dashboard_sessions SET ? WHERE id IN (SELECT id FROM minted) AND revoked_at IS NULL RETURNING hash`, [
    parentId(parent),
    set,
  ]);
  return (res.rows as Array<{ hash: string }>).map((r) => r.hash);
}

/** The token hashes of the live sessions a key minted, and of those they minted: what the auth caches drop when the key's scopes change. */
export async function sessionsMintedBy(db: Knex, parent: { keyId: string }): Promise<string[]> {
  const res = await db.raw(`${minted(parent)} SELECT hash FROM dashboard_sessions WHERE id IN (SELECT id FROM minted) AND revoked_at IS NULL`, [
    parentId(parent),
  ]);
  return (res.rows as Array<{ hash: string }>).map((r) => r.hash);
}

/** A CTE `minted`: the ids of the sessions `parent` minted, and of the sessions those minted (one binding: the parent's id). */
function minted(parent: { keyId: string } | { sessionId: string }): string {
  const column = 'keyId' in parent ? 'parent_key_id' : 'parent_session_id';
  return `WITH RECURSIVE minted AS (
       SELECT id FROM dashboard_sessions WHERE ${column} = ?
       UNION SELECT s.id FROM dashboard_sessions s JOIN minted m ON s.parent_session_id = m.id
     )`;
}

const parentId = (parent: { keyId: string } | { sessionId: string }) => ('keyId' in parent ? parent.keyId : parent.sessionId);

/**
 * One statement: the session with this hash, walked up its lineage (parent sessions) to the key at
 * its root, with that key's scopes, revocation and expiry as they are now. A session never holds
 * more than its root key does today; a lineage without a key (CLI) holds every scope.
 */
const SESSION_WITH_AUTHORITY = `
  WITH RECURSIVE lineage AS (
    SELECT id, tenant_id, parent_key_id, parent_session_id, revoked_at, 0 AS depth FROM dashboard_sessions WHERE hash = ?
    UNION ALL
    SELECT p.id, p.tenant_id, p.parent_key_id, p.parent_session_id, p.revoked_at, l.depth + 1
      FROM dashboard_sessions p JOIN lineage l ON p.id = l.parent_session_id AND p.tenant_id = l.tenant_id
     WHERE l.depth < 100
  ), root AS (SELECT * FROM lineage ORDER BY depth DESC LIMIT 1)
  SELECT s.*, k.scopes AS key_scopes, k.expires_at AS key_expires_at,
         least((SELECT min(revoked_at) FROM lineage), k.revoked_at,
               CASE WHEN root.parent_key_id IS NOT NULL AND k.id IS NULL THEN now() END) AS lineage_revoked_at
    FROM dashboard_sessions s
    JOIN root ON true
    LEFT JOIN api_keys k ON k.id = root.parent_key_id AND k.tenant_id = root.tenant_id
   WHERE s.hash = ?`;

export function sessionsRepo(db: Knex) {
  return {
    /**
     * Mints a dashboard session; the token is returned once and only its hash is kept. It never
     * outlives its parent: expires_at is capped at the parent's. The parent row is read FOR SHARE,
     * so a revocation running at the same time either sees this session or refuses it.
     */
    async create(tenantId: string, parent: SessionParent, createdBy: string, ttlHours: number): Promise<{ row: SessionRow; token: string }> {
      const { token, hash } = mintSessionToken();
      return db.transaction(async (trx) => {
        let notAfter: Date | null = null;
        if (parent) {
          const table = 'keyId' in parent ? 'api_keys' : 'dashboard_sessions';
          const id = 'keyId' in parent ? parent.keyId : parent.sessionId;
          const found = await trx(table).where({ id, tenant_id: tenantId }).forShare().first('expires_at', 'revoked_at');
          if (!found || found.revoked_at) throw new AppError('key_revoked', 401, 'the credential minting this session has been revoked');
          notAfter = found.expires_at;
        }
        const [row] = await trx<SessionRow>('dashboard_sessions')
          .insert({
            id: newId('ses'),
            tenant_id: tenantId,
            hash,
            created_by: createdBy,
            parent_key_id: parent && 'keyId' in parent ? parent.keyId : null,
            parent_session_id: parent && 'sessionId' in parent ? parent.sessionId : null,
            expires_at: trx.raw(`least(now() + make_interval(secs => ?), coalesce(?::timestamptz, 'infinity'))`, [
              ttlHours * 3600,
              notAfter,
            ]) as unknown as Date,
          })
          .returning('*');
        return { row: row as SessionRow, token };
      });
    },
    /** The session for authentication, with its root key's current authority (SESSION_WITH_AUTHORITY). */
    async findByHash(hash: string): Promise<SessionAuthRow | undefined> {
      const res = await db.raw(SESSION_WITH_AUTHORITY, [hash, hash]);
      return res.rows[0] as SessionAuthRow | undefined;
    },
    /** Revokes a session and every session minted from it; returns the revoked session (or undefined) and the hashes to drop. */
    async revoke(tenantId: string, id: string): Promise<{ row: SessionRow; hashes: string[] } | undefined> {
      return db.transaction(async (trx) => {
        const [row] = await trx<SessionRow>('dashboard_sessions')
          .where({ tenant_id: tenantId, id })
          .update({ revoked_at: trx.raw('coalesce(revoked_at, now())') as unknown as Date })
          .returning('*');
        if (!row) return undefined;
        return { row: row as SessionRow, hashes: [row.hash, ...(await endSessionsMintedBy(trx, { sessionId: id }, { revoke: true }))] };
      });
    },
  };
}
