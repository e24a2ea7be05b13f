import type { Knex } from 'knex';
import { newId, randomSecret, sha256 } from '../platform/ids.js';

export interface ExportRow {
  id: string;
  tenant_id: string;
  job_id: string;
  kind: string;
  file: string;
  bytes: number;
  token_hash: string;
  expires_at: Date;
  created_at: Date;
}

export function exportsRepo(db: Knex) {
  const rows = () => db<ExportRow>('data_exports');
  return {
    /** Records an archive and mints its download token (only the hash is kept; the token goes into the link once). */
    async create(r: {
      tenantId: string;
      jobId: string;
      kind: string;
      file: string;
      bytes: number;
      ttlHours: number;
      id?: string;
    }): Promise<{ row: ExportRow; token: string }> {
      const token = randomSecret(24);
      const [row] = await rows()
        .insert({
          id: r.id ?? newId('exp'),
          tenant_id: r.tenantId,
          job_id: r.jobId,
          kind: r.kind,
          file: r.file,
          bytes: r.bytes,
          token_hash: sha256(token),
          expires_at: db.raw(`now() + ? * interval '1 hour'`, [r.ttlHours]) as unknown as Date,
        })
        .onConflict('id')
        .merge(['file', 'bytes', 'token_hash', 'expires_at'])
        .returning('*');
      return { row: row as ExportRow, token };
    },
    async byToken(id: string, token: string): Promise<ExportRow | undefined> {
      return rows()
        .where({ id, token_hash: sha256(token) })
        .first();
    },
    async forTenant(tenantId: string): Promise<ExportRow[]> {
      return rows().where({ tenant_id: tenantId });
    },
  };
}
