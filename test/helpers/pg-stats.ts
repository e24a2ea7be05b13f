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

/**
 * Waits until a VACUUM can remove every row version deleted before this call, whatever other
 * sessions do meanwhile. A vacuum keeps a dead row that a snapshot of its database may still see,
 * and a snapshot's horizon is the oldest transaction still running in the whole cluster: a query
 * of this database's own workers (a timer's flush) that ran during the vacuum while another test
 * file's transaction, older than the rows' deletion, was open, kept all 300 dead rows (seen once
 * under the parallel suite). Takes a transaction id after the deletions, then waits until no
 * transaction up to it runs anywhere and no session of this database holds a snapshot from before
 * it: every later snapshot's horizon is past the deletions.
 */
export async function vacuumHorizonPast(db: Knex): Promise<void> {
  const marker = String((await db.raw('SELECT pg_current_xact_id()::text AS x')).rows[0].x);
  const marker32 = String(BigInt(marker) % 2n ** 32n);
  await waitFor(
    async () => {
      const { rows } = await db.raw(
        `SELECT pg_snapshot_xmin(pg_current_snapshot()) > ?::xid8 AS ended,
                (SELECT count(*)::int FROM pg_stat_activity
                  WHERE datname = current_database() AND pid <> pg_backend_pid()
                    AND backend_xmin IS NOT NULL AND age(backend_xmin) >= age(?::xid)) AS holding`,
        [marker, marker32],
      );
      return rows[0].ended && rows[0].holding === 0;
    },
    60_000,
    `no transaction or snapshot from before ${marker} left`,
    100,
  );
}
