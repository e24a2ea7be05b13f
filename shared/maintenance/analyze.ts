import type { Knex } from 'knex';

/** The tables whose statistics the catalog's and the search path's query plans depend on. */
const TABLES = ['products', 'product_index_state', 'search_docs', 'search_cards'] as const;

/**
 * ANALYZEs each of these tables whose statistics no longer describe it, for servers where
 * autovacuum is off or behind (this environment's is off), and whatever autovacuum does: after a
 * store's first load the planner kept empty-table estimates and its searches ran 10-40 times
 * slower (issue 12: p50 1,104 ms before ANALYZE, 27.5 ms after). Stale means rows changed since the last
 * analyze (pg_stat_user_tables.n_mod_since_analyze: inserts, updates, deletes) above 50 + 10 % of
 * the live rows, capped at 1,000 changed rows: ANALYZE reads a fixed sample whatever the table's
 * size, while one tenant's 40k new rows in a large shared table are a small share of it and
 * still change that tenant's estimates completely. Table growth counts too (pages on disk beyond
 * what the statistics saw), as the change counters reach pg_stat about a second after a commit.
 * Returns what it analyzed.
 */
export async function analyzeChanged(db: Knex, tables: readonly string[] = TABLES): Promise<string[]> {
  const { rows } = await db.raw(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
      WHERE n.nspname = current_schema() AND c.relname = ANY(?)
        AND (coalesce(s.n_mod_since_analyze, 0) > 50 + least(0.1 * greatest(coalesce(s.n_live_tup, 0), c.reltuples), 1000)
             OR pg_relation_size(c.oid) / current_setting('block_size')::int > 1.1 * greatest(c.relpages, 0) + 8)
      ORDER BY c.relname`,
    [[...tables]],
  );
  const names = (rows as Array<{ relname: string }>).map((r) => r.relname);
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

/** The tables the catalog and search paths rewrite: every re-sync, index mark and reindex leaves dead rows there. */
const VACUUM_TABLES = [
  'products',
  'product_index_state',
  'search_docs',
  'search_cards',
  'search_categories',
  'search_vocab',
  'suggest_terms',
  'category_profiles',
] as const;

/**
 * VACUUM (ANALYZE) each of these tables whose dead rows passed autovacuum's default threshold
 * (50 + 20 % of the live rows), for servers where autovacuum is off (this environment's is): a
 * reindex leaves a whole generation of dead documents behind, and every marked product leaves a
 * dead index-state row. Without it the tables and their indexes only grow, and searches read past
 * the dead rows: after repeated rewrites of a 19k catalog, search_docs held 136k dead rows and took
 * 23,662 pages instead of 3,283.
 * Dead-row counts come from the statistics system, which connections report within a second or
 * so. Returns what it vacuumed.
 */
export async function vacuumDead(db: Knex, tables: readonly string[] = VACUUM_TABLES): Promise<string[]> {
  const { rows } = await db.raw(
    `SELECT relname FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = ANY(?) AND n_dead_tup > 50 + 0.2 * n_live_tup ORDER BY relname`,
    [[...tables]],
  );
  const names = (rows as Array<{ relname: string }>).map((r) => r.relname);
  for (const name of names) await db.raw('VACUUM (ANALYZE) ??', [name]);
  return names;
}

/** True when the server's autovacuum is off: then the service vacuums its own tables (see vacuumDead). */
export async function autovacuumOff(db: Knex): Promise<boolean> {
  const { rows } = await db.raw(`SELECT current_setting('autovacuum') = 'off' AS off`);
  return rows[0].off === true;
}
