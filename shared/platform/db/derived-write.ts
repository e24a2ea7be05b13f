import type { Knex } from 'knex';

/**
 * Runs writes of derived data (search documents, indexing state) in one transaction that does
 * not wait for its WAL flush. A crash can lose the last moments of such writes, never a part of
 * one, and loses them in commit order: a product marked indexed always has its document. What is
 * lost shows up as unindexed and is written again (sweeper, writeBatch's staleIds). Never for
 * the system of record.
 */
export async function derivedWrite<T>(db: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw('SET LOCAL synchronous_commit = off');
    return fn(trx);
  });
}
