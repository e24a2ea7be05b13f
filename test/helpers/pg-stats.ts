import type { Knex } from 'knex';
import { waitFor } from './wait.js';

/**
 * Waits until the statistics counters of `tables` (rows inserted, updated, deleted, dead) are
 * unchanged for 2 s with no other connection of the database inside a statement or transaction.
 * A backend reports its counters when idle, at most once a second, and the pipeline's later writes
 * (indexed marks, the vocabulary) come a moment after the products are searchable: before a test
 * asserts what maintenance finds, the writes and their counters are all in.
 */
export async function statsSettled(db: Knex, tables: string[]): Promise<void> {
  let last = '';
  let since = Date.now();
  await waitFor(
    async () => {
      const busy = await db.raw(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state <> 'idle'`,
      );
      const counters = await db.raw(
        `SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, n_dead_tup FROM pg_stat_user_tables WHERE relname = ANY(?) ORDER BY relname`,
        [tables],
      );
      const now = `${JSON.stringify(counters.rows)}/${busy.rows[0].n}`;
      if (busy.rows[0].n > 0) since = Date.now();
      if (now !== last) [last, since] = [now, Date.now()];
      return Date.now() - since >= 2000;
    },
    30_000,
    `statistics of ${tables.join(', ')} settled`,
    250,
  );
}
