import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from './migrations/index.js';
import { retryReadsOnce } from './read-retry.js';

// numeric and bigint come back as strings by default; counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * Opens a knex pool on `url`; nothing connects until the first query. A Postgres that cannot be
 * reached fails a request within seconds (connect timeout 5 s, waiting for a pooled connection
 * 10 s) instead of knex's 60 s; reads broken by a lost connection run again once (read-retry.ts).
 * `statementTimeoutMs` (the API's pool) makes Postgres cancel any statement running longer, set
 * once per connection (a startup parameter: no extra round trip).
 */
export function createDb(url: string, pool = { min: 0, max: 10 }, workMem = '32MB', statementTimeoutMs = 0): Knex {
  return retryReadsOnce(
    knexFactory({
      client: 'pg',
      connection: {
        connectionString: url,
        connectionTimeoutMillis: 5_000,
        keepAlive: true,
        ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
      },
      acquireConnectionTimeout: 10_000,
      pool: {
        ...pool,
        // Search queries sort and aggregate thousands of matches: enough memory keeps that off temp files.
        afterCreate: (conn: pg.Client, done: (err: Error | null, conn: pg.Client) => void) => {
          conn.query(`SET work_mem = '${workMem}'`, (err) => done(err, conn));
        },
      },
    }),
  );
}

/** Applies pending migrations; returns the names it ran. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  await db.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  const [, names] = await db.migrate.latest({ migrationSource });
  return names as string[];
}
