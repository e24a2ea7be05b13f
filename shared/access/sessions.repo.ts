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
  const [column, id] = 'keyId' in parent ? ['parent_key_id', parent.keyId] : ['parent_session_id', parent.sessionId];
  const set = 'revoke' in end ? trx.raw('revoked_at = now()') : trx.raw('expires_at = least(expires_at, ?)', [end.notAfter]);
  const res = await trx.raw(
    `WITH RECURSIVE minted AS (
       SELECT id FROM dashboard_sessions WHERE ${column} = ?
       UNION SELECT s.id FROM dashboard_sessions s JOIN minted m ON s.parent_session_id = m.id
     )
     UPDATE dashboard_sessions SET ? WHERE id IN (SELECT id FROM minted) AND revoked_at IS NULL RETURNING hash`,
    [id, set],
  );
  return (res.rows as Array<{ hash: string }>).map((r) => r.hash);
}

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
    async findByHash(hash: string): Promise<SessionRow | undefined> {
      return db<SessionRow>('dashboard_sessions').where({ hash }).first();
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
