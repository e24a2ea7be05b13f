import type { Knex } from 'knex';
import type { StoredProduct } from '../../catalog/canonical.js';

export interface ProductRow {
  tenant_id: string;
  id: string;
  data: StoredProduct;
  content_hash: string;
  created_at: Date;
  updated_at: Date;
  indexed_at: Date | null;
}

export interface BatchWrite {
  upserts: Array<{ id: string; data: StoredProduct; hash: string }>;
  deletes: string[];
  sync?: { id: string; complete: boolean };
}

export interface BatchOutcome {
  changedIds: string[];
  /** Unchanged products whose latest version is not indexed yet (a lost enqueue heals on re-send). */
  staleIds: string[];
  unchanged: number;
  deletedIds: string[];
}

export function productsRepo(db: Knex) {
  return {
    /**
     * Writes one batch in one transaction: upserts only products whose hash changed, deletes,
     * records the ids a full sync has seen, and on sync completion deletes what the sync never
     * sent (only products older than the sync, so a concurrent sync's new products survive).
     */
    async writeBatch(tenantId: string, batch: BatchWrite): Promise<BatchOutcome> {
      return db.transaction(async (trx) => {
        const ids = batch.upserts.map((u) => u.id);
        const existing = ids.length
          ? await trx('products').select('id', 'content_hash', trx.raw('(indexed_at IS NULL OR indexed_at < updated_at) AS stale'))
              .where({ tenant_id: tenantId }).whereIn('id', ids)
          : [];
        const known = new Map(existing.map((r: { id: string; content_hash: string }) => [r.id, r.content_hash]));
        const changed = batch.upserts.filter((u) => known.get(u.id) !== u.hash);
        const changedSet = new Set(changed.map((c) => c.id));
        const staleIds = existing.filter((r: { id: string; stale: boolean }) => r.stale && !changedSet.has(r.id)).map((r: { id: string }) => r.id);
        if (changed.length) {
          await trx.raw(
            // updated_at in whole milliseconds: it round-trips through JS Dates as a version.
            `INSERT INTO products (tenant_id, id, data, content_hash, updated_at)
             SELECT ?, v.id, v.data, v.hash, date_trunc('milliseconds', clock_timestamp())
               FROM jsonb_to_recordset(?::jsonb) AS v(id text, data jsonb, hash text)
             ON CONFLICT (tenant_id, id) DO UPDATE
               SET data = EXCLUDED.data, content_hash = EXCLUDED.content_hash, updated_at = EXCLUDED.updated_at`,
            [tenantId, JSON.stringify(changed)],
          );
        }
        const deletedIds: string[] = batch.deletes.length
          ? (await trx('products').where({ tenant_id: tenantId }).whereIn('id', batch.deletes).delete().returning('id')).map((r: { id: string }) => r.id)
          : [];
        if (batch.sync) deletedIds.push(...(await recordSync(trx, tenantId, batch.sync, ids)));
        return { changedIds: changed.map((c) => c.id), staleIds, unchanged: batch.upserts.length - changed.length, deletedIds };
      });
    },
    async find(tenantId: string, id: string): Promise<ProductRow | undefined> {
      return db<ProductRow>('products').where({ tenant_id: tenantId, id }).first();
    },
    async findMany(tenantId: string, ids: string[]): Promise<ProductRow[]> {
      if (!ids.length) return [];
      return db<ProductRow>('products').where({ tenant_id: tenantId }).whereIn('id', ids);
    },
    /** Stable id-ordered pages; `q` matches id or any name text (case-insensitive substring). */
    async list(tenantId: string, opts: { after?: string; limit: number; q?: string | null }): Promise<ProductRow[]> {
      const q = db<ProductRow>('products').where({ tenant_id: tenantId });
      if (opts.after) q.andWhere('id', '>', opts.after);
      if (opts.q) {
        const like = `%${opts.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q.andWhere((w) => w.whereILike('id', like).orWhereRaw(`exists (select 1 from jsonb_each_text(data->'name') n where n.value ilike ?)`, [like]));
      }
      return q.orderBy('id').limit(opts.limit);
    },
    async remove(tenantId: string, id: string): Promise<boolean> {
      return (await db('products').where({ tenant_id: tenantId, id }).delete()) > 0;
    },
    /** Marks products indexed, unless they changed again after `version` was read. */
    async markIndexed(tenantId: string, versions: Array<{ id: string; updatedAt: Date }>): Promise<void> {
      if (!versions.length) return;
      await db.raw(
        `UPDATE products p SET indexed_at = now()
           FROM unnest(?::text[], ?::timestamptz[]) AS v(id, at)
          WHERE p.tenant_id = ? AND p.id = v.id AND p.updated_at = v.at`,
        [versions.map((v) => v.id), versions.map((v) => v.updatedAt.toISOString()), tenantId],
      );
    },
    /** Ids of products not yet indexed in their latest version (for the sweeper). */
    async unindexed(tenantId: string, limit: number): Promise<string[]> {
      const rows = await db('products').select('id').where({ tenant_id: tenantId })
        .andWhereRaw('(indexed_at IS NULL OR indexed_at < updated_at)').orderBy('updated_at').limit(limit);
      return rows.map((r: { id: string }) => r.id);
    },
    /** Pages through all products in id order (reindex). */
    async page(tenantId: string, after: string | null, limit: number): Promise<ProductRow[]> {
      const q = db<ProductRow>('products').where({ tenant_id: tenantId });
      if (after) q.andWhere('id', '>', after);
      return q.orderBy('id').limit(limit);
    },
    async count(tenantId: string): Promise<number> {
      const [row] = await db('products').where({ tenant_id: tenantId }).count<{ count: number }[]>('* as count');
      return Number(row.count);
    },
  };
}

async function recordSync(trx: Knex.Transaction, tenantId: string, sync: { id: string; complete: boolean }, seen: string[]): Promise<string[]> {
  await trx.raw(
    `INSERT INTO product_syncs (tenant_id, sync_id, batches) VALUES (?, ?, 1)
     ON CONFLICT (tenant_id, sync_id) DO UPDATE SET batches = product_syncs.batches + 1`,
    [tenantId, sync.id],
  );
  if (seen.length) {
    await trx.raw(
      `INSERT INTO product_sync_items (tenant_id, sync_id, product_id) SELECT ?, ?, unnest(?::text[]) ON CONFLICT DO NOTHING`,
      [tenantId, sync.id, seen],
    );
  }
  if (!sync.complete) return [];
  const gone = await trx.raw(
    `DELETE FROM products p
      WHERE p.tenant_id = ?
        AND p.updated_at < (SELECT started_at FROM product_syncs WHERE tenant_id = ? AND sync_id = ?)
        AND NOT EXISTS (SELECT 1 FROM product_sync_items s WHERE s.tenant_id = p.tenant_id AND s.sync_id = ? AND s.product_id = p.id)
      RETURNING p.id`,
    [tenantId, tenantId, sync.id, sync.id],
  );
  // A completed sync is over: its bookkeeping goes, so the same sync_id could start afresh.
  await trx('product_syncs').where({ tenant_id: tenantId, sync_id: sync.id }).delete();
  return gone.rows.map((r: { id: string }) => r.id);
}
