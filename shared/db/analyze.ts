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

/** The tables whose GIN indexes the search path reads: text vectors, category ids, vocabulary trigrams. */
const GIN_TABLES = ['search_docs', 'search_vocab', 'suggest_terms'] as const;

/**
 * Moves the entries waiting in these tables' GIN pending lists into the indexes proper. Inserts
 * park their entries there (fastupdate) until the list passes gin_pending_list_limit or a vacuum
 * runs, and every query reading the index scans the whole list: after a 19k-product load, 1.3 MB
 * waiting made text matches about twice as slow (1.2-2.1 ms against 0.5-1.1 ms). The merge is
 * work the inserts would have done anyway. Returns the pending pages cleaned per index.
 */
export async function flushGinPending(db: Knex, tables: readonly string[] = GIN_TABLES): Promise<Record<string, number>> {
  const { rows } = await db.raw(
    `SELECT i.indexrelid::regclass::text AS name FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
       JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE am.amname = 'gin' AND n.nspname = current_schema() AND t.relname = ANY(?)
      ORDER BY 1`,
    [[...tables]],
  );
  const out: Record<string, number> = {};
  for (const { name } of rows as Array<{ name: string }>) {
    out[name] = Number((await db.raw('SELECT gin_clean_pending_list(?::regclass) AS pages', [name])).rows[0].pages);
  }
  return out;
}
