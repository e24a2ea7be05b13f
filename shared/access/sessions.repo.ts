import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';
import { mintSessionToken } from './key-format.js';

export interface SessionRow {
  id: string;
  tenant_id: string;
  hash: string;
  created_by: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export function sessionsRepo(db: Knex) {
  return {
    /** Mints a dashboard session; the token is returned once and only its hash is kept. */
    async create(tenantId: string, createdBy: string, ttlHours: number): Promise<{ row: SessionRow; token: string }> {
      const { token, hash } = mintSessionToken();
      const [row] = await db<SessionRow>('dashboard_sessions')
        .insert({
          id: newId('ses'),
          tenant_id: tenantId,
          hash,
          created_by: createdBy,
          expires_at: new Date(Date.now() + ttlHours * 3600_000),
        })
        .returning('*');
      return { row: row as SessionRow, token };
    },
    async findByHash(hash: string): Promise<SessionRow | undefined> {
      return db<SessionRow>('dashboard_sessions').where({ hash }).first();
    },
    async revoke(tenantId: string, id: string): Promise<SessionRow | undefined> {
      const [row] = await db<SessionRow>('dashboard_sessions')
        .where({ tenant_id: tenantId, id })
        .update({ revoked_at: db.raw('coalesce(revoked_at, now())') as unknown as Date })
        .returning('*');
      return row as SessionRow | undefined;
    },
  };
}
