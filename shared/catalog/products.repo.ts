import type { Knex } from 'knex';
import type { CanonicalProduct, StoredProduct } from './canonical.js';
import { derivedWrite } from '../platform/db/derived-write.js';
import type { IdAfter } from '../platform/cursor.js';
import { completeSync, touchSync } from './syncs.js';
import { deleteUnsentInline, syncCleanupPending, syncTooLargeInline } from './sync-cleanup.js';

export interface ProductRow {
  tenant_id: string;
  id: string;
  data: StoredProduct;
  content_hash: string;
  created_at: Date;
  updated_at: Date;
}

/** A product with when it was last written to the search engine (null: never). */
export interface ProductWithState extends ProductRow {
  indexed_at: Date | null;
}

export interface BatchWrite {
  /** Products with their canonical JSON, written as sent here (not serialized again). */
  upserts: CanonicalProduct[];
  deletes: string[];
  /**
   * A full sync's batch; `refused`: ids of items the batch refused (sent all the same: the sync keeps
   * them); `idleDays`: a sync with no batch for longer has expired (the batch throws `sync_expired`).
   */
  sync?: { id: string; complete: boolean; idleDays: number; refused?: string[] };
}

export interface BatchOutcome {
  changedIds: string[];
  /** Unchanged products whose latest version is not indexed yet (a lost enqueue heals on re-send). */
  staleIds: string[];
  unchanged: number;
  deletedIds: string[];
  /** A completed full sync whose unsent products a finish-sync job deletes (the caller starts it). */
  syncCleanup?: string;
}

export function productsRepo(db: Knex) {
  return {
    /**
     * Writes one batch in one transaction: upserts only products whose hash changed, deletes,
     * records the ids a full sync has seen, and on sync completion deletes what the sync never
     * sent (only products older than the sync, so a concurrent sync's new products survive), or
     * for a large store leaves that to a finish-sync job (`syncCleanup`). A
     * batch of an expired sync throws 410 `sync_expired` and writes nothing.
     */
    async writeBatch(tenantId: string, batch: BatchWrite): Promise<BatchOutcome> {
      return db.transaction(async (trx) => {
        const ids = batch.upserts.map((u) => u.id);
        // One primary-key probe per id (LATERAL ... LIMIT 1 cannot be turned into a hash join): during a
        // bulk load the statistics are stale and an IN list was planned as a scan of the tenant's whole
        // catalog (166 ms per 1,000 at 100k products).
        const existing = ids.length
          ? (
              await trx.raw(
                `SELECT v.id, x.content_hash, x.stale FROM unnest(?::text[]) AS v(id) CROSS JOIN LATERAL (
                 SELECT p.content_hash, (s.indexed_version IS NULL OR s.indexed_version < p.updated_at) AS stale
                   FROM products p LEFT JOIN product_index_state s ON s.tenant_id = p.tenant_id AND s.product_id = p.id
                  WHERE p.tenant_id = ? AND p.id = v.id LIMIT 1) x`,
                [ids, tenantId],
              )
            ).rows
          : [];
        const known = new Map(existing.map((r: { id: string; content_hash: string }) => [r.id, r.content_hash]));
        const changed = batch.upserts.filter((u) => known.get(u.id) !== u.hash);
        const changedSet = new Set(changed.map((c) => c.id));
        const staleIds = existing.filter((r: { id: string; stale: boolean }) => r.stale && !changedSet.has(r.id)).map((r: { id: string }) => r.id);
        if (changed.length) {
          await trx.raw(
            // updated_at in whole milliseconds: it round-trips through JS Dates as a version.
            `WITH stored AS (
               INSERT INTO products (tenant_id, id, data, content_hash, updated_at)
               SELECT ?, v.id, v.data, v.hash, date_trunc('milliseconds', clock_timestamp())
                 FROM jsonb_to_recordset(?::jsonb) AS v(id text, data jsonb, hash text)
               ON CONFLICT (tenant_id, id) DO UPDATE
                 SET data = EXCLUDED.data, content_hash = EXCLUDED.content_hash, updated_at = EXCLUDED.updated_at
               RETURNING tenant_id, id, updated_at)
             INSERT INTO product_index_state (tenant_id, product_id, version) SELECT tenant_id, id, updated_at FROM stored
             ON CONFLICT (tenant_id, product_id) DO UPDATE SET version = EXCLUDED.version`,
            [tenantId, `[${changed.map((c) => `{"id":${JSON.stringify(c.id)},"hash":"${c.hash}","data":${c.json}}`).join(',')}]`],
          );
        }
        const deletedIds: string[] = batch.deletes.length
          ? (await trx('products').where({ tenant_id: tenantId }).whereIn('id', batch.deletes).delete().returning('id')).map((r: { id: string }) => r.id)
          : [];
        const sync = batch.sync ? await recordSync(trx, tenantId, batch.sync, [...ids, ...(batch.sync.refused ?? [])]) : null;
        if (sync) deletedIds.push(...sync.deletedIds);
        const syncCleanup = sync?.cleanup ? batch.sync?.id : undefined;
        return { changedIds: changed.map((c) => c.id), staleIds, unchanged: batch.upserts.length - changed.length, deletedIds, syncCleanup };
      });
    },
    async find(tenantId: string, id: string): Promise<ProductWithState | undefined> {
      return withState(db).where({ 'p.tenant_id': tenantId, 'p.id': id }).first();
    },
    async findMany(tenantId: string, ids: string[]): Promise<ProductRow[]> {
      if (!ids.length) return [];
      // One primary-key probe per id, whatever the statistics say (see writeBatch).
      const sql = `SELECT x.* FROM unnest(?::text[]) AS v(id) CROSS JOIN LATERAL (SELECT * FROM products p WHERE p.tenant_id = ? AND p.id = v.id LIMIT 1) x`;
      return (await db.raw(sql, [ids, tenantId])).rows;
    },
    /**
     * Stable id-ordered pages; `q` matches id or any name text (case-insensitive substring). A page
     * after a long id's cursor (IdAfter's prefix and hash) starts after that id; if the product was
     * deleted since, after the prefix: rows sharing it may come again, none is skipped.
     */
    async list(tenantId: string, opts: { after?: IdAfter; limit: number; q?: string | null }): Promise<ProductWithState[]> {
      const q = withState(db).where({ 'p.tenant_id': tenantId });
      const after = opts.after;
      if (after && 'after' in after) q.andWhere('p.id', '>', after.after);
      else if (after) {
        q.andWhereRaw(
          `p.id > coalesce((SELECT id FROM products WHERE tenant_id = ? AND id >= ? AND starts_with(id, ?) AND left(md5(id), 16) = ? ORDER BY id LIMIT 1), ?)`,
          [tenantId, after.prefix, after.prefix, after.hash, after.prefix],
        );
      }
      if (opts.q) {
        const like = `%${opts.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q.andWhere((w) => w.whereILike('p.id', like).orWhereRaw(`exists (select 1 from jsonb_each_text(p.data->'name') n where n.value ilike ?)`, [like]));
      }
      return q.orderBy('p.id').limit(opts.limit);
    },
    async remove(tenantId: string, id: string): Promise<boolean> {
      return (await db('products').where({ tenant_id: tenantId, id }).delete()) > 0;
    },
    /**
     * Records that `version` of each product is in the engine. A product changed since stays
     * unindexed (its version is newer); an older version never overwrites a newer one.
     */
    async markIndexed(tenantId: string, versions: Array<{ id: string; updatedAt: Date }>): Promise<void> {
      if (!versions.length) return;
      // A function of keyed updates (migration 008): a set-based UPDATE's plan is only as good as the statistics.
      await derivedWrite(db, (trx) =>
        trx.raw('SELECT mark_products_indexed(?, ?::text[], ?::timestamptz[])', [
          tenantId,
          versions.map((v) => v.id),
          versions.map((v) => v.updatedAt.toISOString()),
        ]),
      );
    },
    /** Ids of products not yet indexed in their latest version, oldest change first. */
    async unindexed(tenantId: string, limit: number): Promise<string[]> {
      const rows = await db('product_index_state').select('product_id').where({ tenant_id: tenantId }).andWhereRaw(STALE).orderBy('version').limit(limit);
      return rows.map((r: { product_id: string }) => r.product_id);
    },
    /**
     * Products of any tenant whose latest version has waited over `olderThanMs` without being
     * indexed (a lost enqueue, a derived write lost in a crash), oldest first, at most `limit`.
     */
    async stale(olderThanMs: number, limit: number): Promise<Array<{ tenant_id: string; product_id: string }>> {
      return db('product_index_state')
        .select('tenant_id', 'product_id')
        .whereRaw(STALE)
        .andWhere('version', '<', db.raw(`now() - ? * interval '1 millisecond'`, [olderThanMs]))
        .orderBy('version')
        .limit(limit);
    },
    async countUnindexed(tenantId: string): Promise<number> {
      const [{ n }] = await db('product_index_state').where({ tenant_id: tenantId }).andWhereRaw(STALE).count({ n: '*' });
      return Number(n);
    },
    /** Pages through all products in id order (reindex). */
    async page(tenantId: string, after: string | null, limit: number): Promise<ProductRow[]> {
      return db.transaction(async (trx) => {
        // Walk the primary key. Without statistics (during or just after a bulk load) each page was
        // planned as a bitmap scan of everything after `after` plus an on-disk sort: 100-290 ms per
        // page at 100k products, a whole-catalog walk quadratic. One table, so only the index scan is left.
        await trx.raw('SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off');
        const q = trx<ProductRow>('products').where({ tenant_id: tenantId });
        if (after) q.andWhere('id', '>', after);
        return q.orderBy('id').limit(limit);
      });
    },
    /** Which of `ids` are stored. */
    async existingIds(tenantId: string, ids: string[]): Promise<Set<string>> {
      if (!ids.length) return new Set();
      const rows = await db('products').where({ tenant_id: tenantId }).whereIn('id', ids).select('id');
      return new Set(rows.map((r: { id: string }) => r.id));
    },
    async count(tenantId: string): Promise<number> {
      const [row] = await db('products').where({ tenant_id: tenantId }).count<{ count: number }[]>('* as count');
      return Number(row.count);
    },
  };
}

// The predicate of the partial index product_index_state_stale, word for word so the planner uses it.
const STALE = '(indexed_version IS NULL OR indexed_version < version)';

function withState(db: Knex) {
  return db<ProductWithState>('products as p')
    .select('p.*', 's.indexed_at')
    .leftJoin('product_index_state as s', (j) => j.on('s.tenant_id', 'p.tenant_id').andOn('s.product_id', 'p.id'));
}

/**
 * Records a full sync's batch; on completion deletes what the sync never sent, here for a small
 * store (`deletedIds`) or, for a store over SYNC_INLINE_PRODUCTS, by a finish-sync job the caller
 * starts (`cleanup`): the sync is completed at once and its seen set stays until the job ends.
 */
async function recordSync(
  trx: Knex.Transaction,
  tenantId: string,
  sync: { id: string; complete: boolean; idleDays: number },
  seen: string[],
): Promise<{ deletedIds: string[]; cleanup: boolean }> {
  // The retry of the completing batch of a sync just completed: a plain batch (its upserts are unchanged), nothing deleted;
  // a cleanup still pending is started again (its first start may have been lost with Redis).
  if ((await touchSync(trx, tenantId, sync.id, sync.idleDays, sync.complete)) === 'done') {
    return { deletedIds: [], cleanup: await syncCleanupPending(trx, tenantId, sync.id) };
  }
  if (seen.length) {
    await trx.raw(`INSERT INTO product_sync_items (tenant_id, sync_id, product_id) SELECT ?, ?, unnest(?::text[]) ON CONFLICT DO NOTHING`, [
      tenantId,
      sync.id,
      seen,
    ]);
  }
  if (!sync.complete) return { deletedIds: [], cleanup: false };
  if (await syncTooLargeInline(trx, tenantId)) {
    await completeSync(trx, tenantId, sync.id, { keepSeen: true });
    return { deletedIds: [], cleanup: true };
  }
  const deletedIds = await deleteUnsentInline(trx, tenantId, sync.id);
  // A completed sync is over: its seen set goes; its row holds the sync_id a while (a retried completion is refused).
  await completeSync(trx, tenantId, sync.id);
  return { deletedIds, cleanup: false };
}
