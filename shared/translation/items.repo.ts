import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';
import type { SourceField } from './fields.js';
import { staleTarget } from './state-machine.js';
import type { QualityNotes } from './quality-checks.js';
import { SERVED, type Field, type Status } from './translation.schema.js';

export interface ItemRow {
  tenant_id: string;
  id: string;
  product_id: string;
  field: Field;
  field_key: string;
  source_locale: string;
  target_locale: string;
  source_text: string;
  source_hash: string;
  translated_text: string | null;
  ai_translated: boolean;
  status: Status;
  stale_from: Status | null;
  human_edited: boolean;
  quality_score: number | null;
  quality_notes: QualityNotes;
  provider: string | null;
  cost_micros: string;
  version: number;
  feed_seq: string | null;
  approved_at: Date | null;
  written_back_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An item's new source; the status it goes to is decided on the locked row (markStale). */
export interface StaleChange {
  id: string;
  source_text: string;
  source_hash: string;
}

/** An item after markStale: its new source, the status it went to, and its new version. */
export type StaleRow = Pick<ItemRow, 'id' | 'source_text' | 'source_hash' | 'status' | 'stale_from' | 'version'>;

/** A machine result for one item, written only if the item is still at `version`. */
export interface MachineWrite {
  id: string;
  version: number;
  translated_text: string;
  status: Status;
  quality_score: number;
  quality_notes: QualityNotes;
  provider: string;
  cost_micros: number;
}

/**
 * Every write of translation items runs under the tenant's feed lock (a transaction-scoped
 * advisory lock): approvals therefore take feed sequence numbers in commit order, so a feed reader
 * never sees number n+1 before n (README "Approved feed"), and item writers never deadlock.
 */
export async function lockFeed(trx: Knex.Transaction, tenantId: string): Promise<void> {
  await trx.raw(`SELECT pg_advisory_xact_lock(hashtextextended('translation-feed:' || ?, 0))`, [tenantId]);
}

/** Feed position for rows entering approved or human_edited; null leaves it. */
export const NEXT_SEQ = `nextval('translation_feed_seq')`;

export function itemsRepo(db: Knex) {
  return {
    /** Every item of these products (one target locale, or all). */
    async forProducts(tenantId: string, productIds: string[], target?: string): Promise<ItemRow[]> {
      if (!productIds.length) return [];
      const q = db<ItemRow>('translation_items').where({ tenant_id: tenantId }).whereIn('product_id', productIds);
      if (target) q.andWhere({ target_locale: target });
      return q;
    },
    /** Items whose text search serves: machine, approved, human-edited, and stale ones that were. */
    async served(tenantId: string, productIds: string[]): Promise<ItemRow[]> {
      if (!productIds.length) return [];
      return db<ItemRow>('translation_items')
        .where({ tenant_id: tenantId })
        .whereIn('product_id', productIds)
        .whereNotNull('translated_text')
        .andWhere((w) => w.whereIn('status', SERVED as Status[]).orWhere((s) => s.where({ status: 'stale' }).whereIn('stale_from', SERVED as Status[])));
    },
    /**
     * Creates pending items for fields that have none yet (existing items are left alone); returns
     * the rows created. A product deleted since the caller read it keeps none: its delete's hook
     * (removeProducts) may have run before these rows committed, so they are checked once committed
     * (a delete committing later is followed by a hook that sees them).
     */
    async insertPending(tenantId: string, target: string, fields: SourceField[]): Promise<ItemRow[]> {
      if (!fields.length) return [];
      const rows = fields.map((f) => ({
        id: newId('tr'),
        product_id: f.productId,
        field: f.field,
        field_key: f.fieldKey,
        source_locale: f.sourceLocale,
        source_text: f.text,
        source_hash: f.hash,
      }));
      const res = await db.raw(
        `INSERT INTO translation_items (tenant_id, id, product_id, field, field_key, source_locale, target_locale, source_text, source_hash)
         SELECT ?, v.id, v.product_id, v.field, v.field_key, v.source_locale, ?, v.source_text, v.source_hash
           FROM jsonb_to_recordset(?::jsonb) AS v(id text, product_id text, field text, field_key text, source_locale text, source_text text, source_hash text)
         ON CONFLICT (tenant_id, product_id, field, field_key, target_locale) DO NOTHING
         RETURNING *`,
        [tenantId, target, JSON.stringify(rows)],
      );
      const created: ItemRow[] = res.rows;
      if (!created.length) return created;
      const orphans = await db('translation_items')
        .where({ tenant_id: tenantId })
        .whereIn(
          'id',
          created.map((r) => r.id),
        )
        .whereNotExists(
          db('products').select(db.raw('1')).whereRaw('products.tenant_id = translation_items.tenant_id AND products.id = translation_items.product_id'),
        )
        .delete()
        .returning('id');
      if (!orphans.length) return created;
      const gone = new Set(orphans.map((r: { id: string }) => r.id));
      return created.filter((r) => !gone.has(r.id));
    },
    /**
     * A changed source: new source text and hash, status per staleTarget(); the version moves so
     * in-flight machine results are dropped. The status is taken from each row as it is under the
     * lock, not as the caller read it: a review decision or machine write committed since then
     * counts (an edit read as pending went back to `pending`, a rejection read as approved was
     * served again). Rows that already carry the new source are left alone. Returns the rows changed.
     */
    async markStale(tenantId: string, changes: StaleChange[]): Promise<StaleRow[]> {
      if (!changes.length) return [];
      return db.transaction(async (trx) => {
        await lockFeed(trx, tenantId);
        const rows: Array<Pick<ItemRow, 'id' | 'status' | 'stale_from' | 'source_hash'>> = await trx('translation_items')
          .where({ tenant_id: tenantId })
          .whereIn(
            'id',
            changes.map((c) => c.id),
          )
          .orderBy('id')
          .forUpdate()
          .select('id', 'status', 'stale_from', 'source_hash');
        const byId = new Map(rows.map((r) => [r.id, r]));
        const updates = changes.flatMap((c) => {
          const row = byId.get(c.id);
          return row && row.source_hash !== c.source_hash ? [{ ...c, ...staleTarget(row) }] : [];
        });
        if (!updates.length) return [];
        const res = await trx.raw(
          `UPDATE translation_items t SET source_text = v.source_text, source_hash = v.source_hash, status = v.status, stale_from = v.stale_from,
                  version = t.version + 1, updated_at = now()
             FROM jsonb_to_recordset(?::jsonb) AS v(id text, source_text text, source_hash text, status text, stale_from text)
            WHERE t.tenant_id = ? AND t.id = v.id
            RETURNING t.id, t.source_text, t.source_hash, t.status, t.stale_from, t.version`,
          [JSON.stringify(updates), tenantId],
        );
        return res.rows;
      });
    },
    /**
     * Writes machine results, each only if its item is still at the version collected and no person
     * wrote it since; approved ones enter the feed. Returns the rows written.
     */
    async writeMachine(tenantId: string, writes: MachineWrite[]): Promise<Array<Pick<ItemRow, 'id' | 'product_id' | 'status'>>> {
      if (!writes.length) return [];
      return db.transaction(async (trx) => {
        // Only a write that enters the feed needs its lock (numbers in commit order); machine and review results do not.
        if (writes.some((w) => w.status === 'approved')) await lockFeed(trx, tenantId);
        const res = await trx.raw(
          `UPDATE translation_items t SET translated_text = v.translated_text, status = v.status, stale_from = NULL, ai_translated = true,
                  quality_score = v.quality_score, quality_notes = v.quality_notes, provider = v.provider, cost_micros = t.cost_micros + v.cost_micros,
                  version = t.version + 1, updated_at = now(), written_back_at = NULL,
                  approved_at = CASE WHEN v.status = 'approved' THEN now() ELSE NULL END,
                  feed_seq = CASE WHEN v.status = 'approved' THEN ${NEXT_SEQ} ELSE t.feed_seq END
             FROM (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(id text, version int, translated_text text, status text, quality_score float8,
                   quality_notes jsonb, provider text, cost_micros bigint) ORDER BY x.id) v
            WHERE t.tenant_id = ? AND t.id = v.id AND t.version = v.version AND NOT t.human_edited
            RETURNING t.id, t.product_id, t.status`,
          [JSON.stringify(writes), tenantId],
        );
        return res.rows;
      });
    },
    /** Items of deleted products go with them. */
    async removeProducts(tenantId: string, productIds: string[]): Promise<number> {
      return db('translation_items').where({ tenant_id: tenantId }).whereIn('product_id', productIds).delete();
    },
    /** Items whose field the product dropped or now carries in the target language. */
    async removeItems(tenantId: string, ids: string[]): Promise<number> {
      return db('translation_items').where({ tenant_id: tenantId }).whereIn('id', ids).delete();
    },
    /** The backfill's review_top_n: products by the sessions that clicked them from a search in the last 30 days (a shopper once, however often), then popularity. */
    async topProducts(tenantId: string, n: number): Promise<string[]> {
      if (n <= 0) return [];
      const { rows } = await db.raw(
        `SELECT p.id FROM products p
           LEFT JOIN (SELECT product_id, count(DISTINCT session) AS clicks FROM events
                       WHERE tenant_id = ? AND type = 'search_click' AND occurred_at > now() - interval '30 days' AND product_id IS NOT NULL
                       GROUP BY product_id) e ON e.product_id = p.id
          WHERE p.tenant_id = ?
          ORDER BY coalesce(e.clicks, 0) DESC, coalesce((p.data->>'popularity')::float8, 0) DESC, p.id
          LIMIT ?`,
        [tenantId, tenantId, n],
      );
      return rows.map((r: { id: string }) => r.id);
    },
    async find(tenantId: string, id: string): Promise<ItemRow | undefined> {
      return db<ItemRow>('translation_items').where({ tenant_id: tenantId, id }).first();
    },
    async findMany(tenantId: string, ids: string[]): Promise<ItemRow[]> {
      if (!ids.length) return [];
      return db<ItemRow>('translation_items').where({ tenant_id: tenantId }).whereIn('id', ids);
    },
    /** Counts by status for one target locale, and how many hold a person's text. */
    async statusCounts(tenantId: string, target: string): Promise<{ byStatus: Record<string, number>; humanEdited: number; total: number }> {
      const rows = await db('translation_items')
        .select('status')
        .count({ n: '*' })
        .sum({ h: db.raw('human_edited::int') })
        .where({ tenant_id: tenantId, target_locale: target })
        .groupBy('status');
      const byStatus: Record<string, number> = {};
      let humanEdited = 0;
      let total = 0;
      for (const r of rows as Array<{ status: string; n: string; h: string }>) {
        byStatus[r.status] = Number(r.n);
        humanEdited += Number(r.h ?? 0);
        total += Number(r.n);
      }
      return { byStatus, humanEdited, total };
    },
  };
}
export type ItemsRepo = ReturnType<typeof itemsRepo>;
