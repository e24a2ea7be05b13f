import type { Knex } from 'knex';
import { notFound } from '../platform/errors.js';
import { markUnindexed } from '../catalog/index.js';
import { lockFeed, NEXT_SEQ, type ItemRow } from './items.repo.js';
import { invalidTransition, reviewTarget, type ReviewAction } from './state-machine.js';
import type { QualityNotes } from './quality-checks.js';
import { APPROVED, WRITE_BACK_FIELDS, type Field, type Status } from './translation.schema.js';

/** A person's text with its quality notes (checks run on edits too, for the record). */
export interface Edit {
  text: string;
  notes: QualityNotes;
  score: number;
}

function patchFor(db: Knex, action: ReviewAction, edit?: Edit): Record<string, unknown> {
  const common = { version: db.raw('version + 1'), updated_at: db.fn.now() };
  if (action === 'reject') return { ...common, status: 'rejected', stale_from: null, approved_at: null };
  const enter = { ...common, approved_at: db.fn.now(), feed_seq: db.raw(NEXT_SEQ), written_back_at: null, stale_from: null };
  if (action === 'approve') return { ...enter, status: 'approved' };
  return {
    ...enter,
    status: 'human_edited',
    human_edited: true,
    translated_text: edit!.text,
    ai_translated: false,
    quality_notes: JSON.stringify(edit!.notes),
    quality_score: edit!.score,
  };
}

/** Where a review page starts: after (product, item), or, for a product id too long for a cursor, after the item whose product starts with `pp`. */
export type ReviewAfter = { p: string; id: string } | { pp: string; id: string };

/** Review decisions, the approved feed, acknowledgements and export reads. */
export function reviewRepo(db: Knex) {
  return {
    /** One page of the review queue in (product, id) order, so a product's fields sit together. */
    async list(tenantId: string, opts: { status: Status; target?: string | null; after?: ReviewAfter; limit: number }): Promise<ItemRow[]> {
      const q = db<ItemRow>('translation_items').where({ tenant_id: tenantId, status: opts.status });
      if (opts.target) q.andWhere({ target_locale: opts.target });
      const after = opts.after;
      if (after && 'p' in after) q.andWhereRaw('(product_id, id) > (?, ?)', [after.p, after.id]);
      else if (after) {
        // The item's product; after the prefix if the item is gone (items sharing it may come again, none is skipped).
        q.andWhereRaw(
          `(product_id, id) > (coalesce((SELECT product_id FROM translation_items WHERE tenant_id = ? AND id = ? AND starts_with(product_id, ?)), ?), ?)`,
          [tenantId, after.id, after.pp, after.pp, after.id],
        );
      }
      return q.orderBy([{ column: 'product_id' }, { column: 'id' }]).limit(opts.limit);
    },
    async count(tenantId: string, status: Status, target?: string | null): Promise<number> {
      const q = db('translation_items').where({ tenant_id: tenantId, status });
      if (target) q.andWhere({ target_locale: target });
      const [{ n }] = await q.count({ n: '*' });
      return Number(n);
    },
    /** Applies one review action under the feed lock; 404 for another tenant's id, 409 invalid_transition when the state does not allow it. */
    async decide(tenantId: string, id: string, action: ReviewAction, edit?: Edit): Promise<ItemRow> {
      return db.transaction(async (trx) => {
        await lockFeed(trx, tenantId);
        const item = await trx<ItemRow>('translation_items').where({ tenant_id: tenantId, id }).forUpdate().first();
        if (!item) throw notFound('translation');
        if (!reviewTarget(item, action)) throw invalidTransition(item, action);
        const [row] = await trx('translation_items')
          .where({ tenant_id: tenantId, id })
          .update(patchFor(trx, action, edit))
          .returning('*');
        await markUnindexed(trx, tenantId, [row.product_id]);
        return row as ItemRow;
      });
    },
    /** Approves or rejects many at once; items the action does not apply to (or unknown ids) are skipped. */
    async bulk(tenantId: string, ids: string[], action: 'approve' | 'reject'): Promise<{ updated: ItemRow[]; skipped: string[] }> {
      return db.transaction(async (trx) => {
        await lockFeed(trx, tenantId);
        const items = await trx<ItemRow>('translation_items').where({ tenant_id: tenantId }).whereIn('id', ids).orderBy('id').forUpdate();
        const ok = items.filter((i) => reviewTarget(i, action)).map((i) => i.id);
        const okSet = new Set(ok);
        const updated = ok.length
          ? ((await trx('translation_items').where({ tenant_id: tenantId }).whereIn('id', ok).update(patchFor(trx, action)).returning('*')) as ItemRow[])
          : [];
        await markUnindexed(
          trx,
          tenantId,
          updated.map((r) => r.product_id),
        );
        return { updated, skipped: [...new Set(ids)].filter((id) => !okSet.has(id)) };
      });
    },
    /** Approved and human-edited rows of one locale after feed position `after`, oldest first. */
    async feed(tenantId: string, locale: string, after: number, limit: number): Promise<ItemRow[]> {
      return db<ItemRow>('translation_items')
        .where({ tenant_id: tenantId, target_locale: locale })
        .whereIn('status', APPROVED as Status[])
        .whereIn('field', WRITE_BACK_FIELDS as Field[])
        .andWhere('feed_seq', '>', after)
        .orderBy('feed_seq')
        .limit(limit);
    },
    /** Marks approved rows as written back into the store. */
    async ack(tenantId: string, ids: string[]): Promise<number> {
      return db('translation_items')
        .where({ tenant_id: tenantId })
        .whereIn('id', ids)
        .whereIn('status', APPROVED as Status[])
        .update({ written_back_at: db.fn.now() });
    },
    /** Every approved or human-edited row of a locale, by product, field and key. */
    async approved(tenantId: string, locale: string): Promise<ItemRow[]> {
      return db<ItemRow>('translation_items')
        .where({ tenant_id: tenantId, target_locale: locale })
        .whereIn('status', APPROVED as Status[])
        .orderBy([{ column: 'product_id' }, { column: 'field' }, { column: 'field_key' }]);
    },
  };
}
export type ReviewRepo = ReturnType<typeof reviewRepo>;
