import type { Knex } from 'knex';

/**
 * Marks products as not indexed in their current form, inside the caller's transaction: for a
 * change to what their search documents are built from that does not touch the product row (a
 * translation decision). Its index job is queued after the commit; when that enqueue is lost
 * (Redis down, the process gone) the sweep finds the products by this mark and indexes them, and
 * the index stage clears it (it marks the stored version indexed).
 */
export async function markUnindexed(trx: Knex | Knex.Transaction, tenantId: string, productIds: string[]): Promise<void> {
  if (!productIds.length) return;
  // Rows locked in product order, as every writer of the index state takes them (README "Failure behaviour": no deadlock).
  await trx.raw(
    `UPDATE product_index_state s SET indexed_version = NULL
       FROM (SELECT product_id FROM product_index_state WHERE tenant_id = ? AND product_id = ANY(?::text[]) ORDER BY product_id FOR UPDATE) o
      WHERE s.tenant_id = ? AND s.product_id = o.product_id`,
    [tenantId, [...new Set(productIds)], tenantId],
  );
}
