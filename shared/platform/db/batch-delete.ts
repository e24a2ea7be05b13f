import type { Knex } from 'knex';

/** Rows a retention batch deletes at most: one short statement, never a long lock or a huge transaction. */
export const PURGE_BATCH = 5000;

/**
 * Deletes at most `limit` rows of `table` matching `where` (SQL with `?` bindings) in one statement
 * of its own; returns how many. The rows are picked by ctid (a TID scan, no second index lookup),
 * and `where` is checked again on each row as it is deleted: a row a concurrent transaction changed
 * meanwhile (an Idempotency-Key claim taken over, a job restarted) is deleted only if it still
 * matches. Loop while it returns `limit`.
 */
export async function deleteBatch(db: Knex, table: string, where: string, bindings: readonly Knex.RawBinding[], limit = PURGE_BATCH): Promise<number> {
  const res = await db.raw(`DELETE FROM ?? WHERE ctid = ANY(ARRAY(SELECT ctid FROM ?? WHERE ${where} LIMIT ?)) AND (${where})`, [
    table,
    table,
    ...bindings,
    limit,
    ...bindings,
  ]);
  return res.rowCount ?? 0;
}
