import pg from 'pg';

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Kills a database's connections from an admin connection, as a failover or an operator would. */
export interface Terminator {
  /** pg_terminate_backend on every backend of the database (but the admin's own); returns how many. */
  terminateAll(): Promise<number>;
  /** Resolves once a backend of the database is running a statement that contains `text` (polls pg_stat_activity). */
  running(text: string, timeoutMs?: number): Promise<void>;
  /** Calls terminateAll every `everyMs` until the returned stop() is awaited; stop() gives the total killed. */
  repeat(everyMs: number): () => Promise<number>;
  close(): Promise<void>;
}

/** An admin connection (to the server's maintenance database) that terminates `databaseUrl`'s backends. */
export async function pgTerminator(databaseUrl: string): Promise<Terminator> {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const terminateAll = async () => {
    const { rows } = await admin.query(
      `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      [database],
    );
    return Number(rows[0].n);
  };
  const running = async (text: string, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await admin.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND position($2 in query) > 0 AND pid <> pg_backend_pid()`,
        [database, text],
      );
      if (rows.length) return;
      if (Date.now() > deadline) throw new Error(`no statement with "${text}" started within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return {
    terminateAll,
    running,
    repeat(everyMs) {
      let total = 0;
      let stopped = false;
      const loop = (async () => {
        while (!stopped) {
          total += await terminateAll();
          await new Promise((r) => setTimeout(r, everyMs));
        }
      })();
      return async () => {
        stopped = true;
        await loop;
        return total;
      };
    },
    close: () => admin.end(),
  };
}
