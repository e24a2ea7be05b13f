import type { Knex } from 'knex';

/** The tables whose statistics the catalog's and the search path's query plans depend on. */
const TABLES = ['products', 'product_index_state', 'search_docs'] as const;

/**
 * ANALYZEs each of these tables that grew by more than a tenth (and 8 pages) since its statistics
 * were taken, for servers where autovacuum is off or behind (this environment's is off). Without
 * it, after a bulk sync the planner keeps empty-table estimates and an uncached search ran 25
 * times slower (19k products: 10 vs 263 searches/s). Growth is read from the table's size on
 * disk, not from the activity counters, which other connections report only seconds later.
 * Returns what it analyzed.
 */
export async function analyzeChanged(db: Knex, tables: readonly string[] = TABLES): Promise<string[]> {
  const { rows } = await db.raw(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relname = ANY(?)
        AND pg_relation_size(c.oid) / current_setting('block_size')::int > 1.1 * greatest(c.relpages, 0) + 8`,
    [[...tables]],
  );
  const names = (rows as Array<{ relname: string }>).map((r) => r.relname).filter((n) => tables.includes(n));
  for (const name of names) await db.raw('ANALYZE ??', [name]);
  return names;
}
