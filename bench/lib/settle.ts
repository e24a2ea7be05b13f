import type { Knex } from 'knex';

/**
 * Waits until no other session of this database is running a statement, at most `maxMs`; returns
 * the ms waited. When a load generator stops, the requests it left in an API still run their
 * statements for a while (up to a second and more after an uncached run at c=32 here), and the
 * next figure would measure its first moments against them.
 */
export async function postgresSettled(db: Knex, maxMs = 10_000): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < maxMs) {
    const { rows } = await db.raw(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    if (rows[0].n === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - t0;
}
