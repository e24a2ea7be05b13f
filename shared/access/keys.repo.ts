import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';
import { AppError } from '../platform/errors.js';
import { mintKey, type KeyKind } from './key-format.js';
import { endSessionsMintedBy, sessionsMintedBy } from './sessions.repo.js';

export interface ApiKeyRow {
  id: string;
  tenant_id: string;
  name: string;
  kind: KeyKind;
  hash: string;
  prefix: string;
  last4: string;
  scopes: string[];
  allowed_origins: string[];
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  replaced_by: string | null;
}

export interface NewKey {
  name: string;
  kind: KeyKind;
  scopes: string[];
  allowedOrigins: string[];
  expiresAt: Date | null;
}

export function keysRepo(db: Knex) {
  const keys = (trx: Knex = db) => trx<ApiKeyRow>('api_keys');
  return {
    /** Inserts a key and returns the row with the full key (never stored). */
    async create(tenantId: string, input: NewKey, trx: Knex = db): Promise<{ row: ApiKeyRow; key: string }> {
      const minted = mintKey(input.kind);
      const [row] = await keys(trx)
        .insert({
          id: newId('key'),
          tenant_id: tenantId,
          name: input.name,
          kind: input.kind,
          hash: minted.hash,
          prefix: minted.prefix,
          last4: minted.last4,
          scopes: input.scopes,
          allowed_origins: input.allowedOrigins,
          expires_at: input.expiresAt,
        })
        .returning('*');
      return { row: row as ApiKeyRow, key: minted.key };
    },
    async list(tenantId: string): Promise<ApiKeyRow[]> {
      return keys()
        .where({ tenant_id: tenantId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    async find(tenantId: string, id: string): Promise<ApiKeyRow | undefined> {
      return keys().where({ tenant_id: tenantId, id }).first();
    },
    async findByHash(hash: string): Promise<ApiKeyRow | undefined> {
      return keys().where({ hash }).first();
    },
    /**
     * Applies a patch to a live key; undefined when it is revoked or rotated (its successor copied
     * its scopes already: a patch landing after would never reach the key in use). Its sessions hold
     * its scopes as they are now, so a scope change also answers the token hashes of the live
     * sessions in its lineage, for the auth caches to drop (read after the update, in its
     * transaction: a session minted meanwhile waited on the key's row).
     */
    async update(
      tenantId: string,
      id: string,
      patch: Partial<Pick<ApiKeyRow, 'name' | 'scopes' | 'allowed_origins'>>,
    ): Promise<{ row: ApiKeyRow; sessionHashes: string[] } | undefined> {
      return db.transaction(async (trx) => {
        const [row] = await keys(trx).where({ tenant_id: tenantId, id }).whereNull('revoked_at').whereNull('replaced_by').update(patch).returning('*');
        if (!row) return undefined;
        return { row: row as ApiKeyRow, sessionHashes: patch.scopes ? await sessionsMintedBy(trx, { keyId: id }) : [] };
      });
    },
    /** Revokes a key and, in the same transaction, every session it minted (and theirs); returns the hashes the auth caches must drop. */
    async revoke(tenantId: string, id: string): Promise<{ row: ApiKeyRow; hashes: string[] } | undefined> {
      return db.transaction(async (trx) => {
        const [row] = await keys(trx)
          .where({ tenant_id: tenantId, id })
          .update({ revoked_at: trx.raw('coalesce(revoked_at, now())') as unknown as Date })
          .returning('*');
        if (!row) return undefined;
        return { row: row as ApiKeyRow, hashes: [row.hash, ...(await endSessionsMintedBy(trx, { keyId: id }, { revoke: true }))] };
      });
    },
    /**
     * Creates the successor of `old` and makes `old` expire after the grace period
     * (never later than it already would), in one transaction.
     */
    async rotate(old: ApiKeyRow, graceHours: number): Promise<{ row: ApiKeyRow; key: string; sessionHashes: string[] }> {
      return db.transaction(async (trx) => {
        // Lock the old key so two concurrent rotations cannot both issue a successor.
        const current = await keys(trx).where({ id: old.id }).forUpdate().first();
        if (!current || current.revoked_at || current.replaced_by) {
          throw new AppError('key_already_rotated', 409, 'this key was already rotated or revoked');
        }
        // Copy from the locked row, not `old`: a patch that landed since `old` was read must carry over.
        const created = await this.create(
          current.tenant_id,
          { name: current.name, kind: current.kind, scopes: current.scopes, allowedOrigins: current.allowed_origins, expiresAt: current.expires_at },
          trx,
        );
        await keys(trx)
          .where({ id: old.id })
          .update({
            replaced_by: created.row.id,
            expires_at: trx.raw(`least(coalesce(expires_at, 'infinity'), now() + make_interval(hours => ?))`, [graceHours]) as unknown as Date,
          });
        // Sessions the old key minted end with its grace, like the key itself.
        const notAfter = trx.raw('(SELECT expires_at FROM api_keys WHERE id = ?)', [old.id]);
        return { ...created, sessionHashes: await endSessionsMintedBy(trx, { keyId: old.id }, { notAfter }) };
      });
    },
    /** One statement for a batch of last-used times; never moves a time backwards. */
    async touchLastUsed(times: Map<string, number>): Promise<void> {
      if (times.size === 0) return;
      const ids = [...times.keys()];
      const stamps = ids.map((id) => new Date(times.get(id)!).toISOString());
      await db.raw(
        `UPDATE api_keys k SET last_used_at = v.t
           FROM unnest(?::text[], ?::timestamptz[]) AS v(id, t)
          WHERE k.id = v.id AND (k.last_used_at IS NULL OR k.last_used_at < v.t)`,
        [ids, stamps],
      );
    },
  };
}
