import { AppError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { Queues } from '../platform/queue/queues.js';
import type { Logger } from '../platform/logger.js';
import type { ProductSource } from './fields.js';
import type { GlossaryRow } from './glossary.repo.js';
import type { ItemRow } from './items.repo.js';
import { checkTranslation, qualityScore } from './quality-checks.js';
import { reindexProducts } from './reindex.js';
import type { ReviewRepo } from './review.repo.js';
import type { ReviewAction } from './state-machine.js';

export interface ReviewDeps {
  queues: Pick<Queues, 'enqueue'>;
  logger: Pick<Logger, 'warn'>;
  review: ReviewRepo;
  items: { find(tenantId: string, id: string): Promise<ItemRow | undefined> };
  glossary: { forPair(tenantId: string, source: string, target: string): Promise<GlossaryRow[]> };
  products: { findMany(tenantId: string, ids: string[]): Promise<Array<{ data: ProductSource }>> };
}

/**
 * Review decisions (spec 4.3, README "Translation states"): approve, reject and edit one item, or
 * approve/reject many. What search serves may change, so the products are re-indexed: the decision's
 * transaction marks them unindexed, so an index job that cannot be queued (Redis down) is queued by
 * the sweep instead, and the committed decision is answered 200, never 503 (its retry would be a 409).
 */
export function reviewService(deps: ReviewDeps) {
  const reindex = (tenantId: string, productIds: string[]) =>
    reindexProducts(deps.queues, tenantId, productIds, newId('rv')).catch((err) =>
      deps.logger.warn('translation decision not queued for indexing; the sweep will index it', { err, tenantId, products: productIds.length }),
    );
  return {
    async decide(tenantId: string, id: string, action: ReviewAction, text: string | null | undefined): Promise<ItemRow> {
      if (action === 'edit' && (text == null || !text.trim())) {
        throw new AppError('validation_failed', 400, 'invalid body: text: required for edit', [
          { in: 'body', field: 'text', code: 'required', message: 'edit needs the new text' },
        ]);
      }
      // Spec 4.3 takes a text with every action; only edit uses it, approve and reject leave the translation as it was.
      let edit;
      if (action === 'edit') {
        // A person's text gets the same checks as the machine's, for the record (it is never routed).
        const item = await deps.items.find(tenantId, id);
        if (item) {
          const [product] = await deps.products.findMany(tenantId, [item.product_id]);
          const p = product?.data;
          const notes = checkTranslation({
            source: item.source_text,
            translated: text!,
            targetLocale: item.target_locale,
            codes: p ? [p.brand, p.model, p.sku, p.gtin] : [],
            glossary: await deps.glossary.forPair(tenantId, item.source_locale, item.target_locale),
          });
          edit = { text: text!, notes, score: qualityScore(notes) };
        }
      }
      const row = await deps.review.decide(tenantId, id, action, edit);
      await reindex(tenantId, [row.product_id]);
      return row;
    },
    async bulk(tenantId: string, ids: string[], action: 'approve' | 'reject') {
      const { updated, skipped } = await deps.review.bulk(tenantId, ids, action);
      if (updated.length)
        await reindex(
          tenantId,
          updated.map((r) => r.product_id),
        );
      return { updated: updated.length, skipped: skipped.length, skipped_ids: skipped };
    },
  };
}
