import type { Knex } from 'knex';
import { isBrokenConnection } from '../dependency-errors.js';

interface QueryObject {
  method?: string;
  sql?: string;
}

interface PooledConnection {
  __knexTxId?: string;
  __knex__disposed?: unknown;
}

interface KnexClient {
  query(connection: PooledConnection, obj: QueryObject): Promise<unknown>;
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<unknown>;
}

const READ_METHODS = new Set(['select', 'first', 'pluck']);
// A raw statement is a read when it only selects: no data-changing keyword anywhere in it.
const READ_SQL = /^\s*(select|with)\b/i;
const WRITE_WORDS = /\b(insert|update|delete|merge|truncate|nextval|setval|pg_advisory\w*|into)\b/i;

/** A statement that changes nothing, so running it again on another connection is safe. */
export function isRead(obj: QueryObject): boolean {
  if (obj.method && READ_METHODS.has(obj.method)) return true;
  return obj.method === 'raw' && typeof obj.sql === 'string' && READ_SQL.test(obj.sql) && !WRITE_WORDS.test(obj.sql);
}

/**
 * Every read of this pool that fails because its connection broke (a terminated backend, a reset
 * socket: a failover, a restart, an idle connection the server dropped) runs once more on a fresh
 * connection, in this one place rather than at each call site. Never inside a transaction (its
 * state died with the connection) and never a write (it may have committed before the break).
 */
export function retryReadsOnce(db: Knex): Knex {
  const client = db.client as unknown as KnexClient;
  const query = client.query.bind(client);
  client.query = async (connection, obj) => {
    try {
      return await query(connection, obj);
    } catch (err) {
      if (!isBrokenConnection(err)) throw err;
      // The pool must not hand this connection out again (knex notices only once the socket
      // reports it, which may be after the next query was sent on it).
      connection.__knex__disposed ??= err;
      if (connection.__knexTxId || !isRead(obj)) throw err;
      // A pause lets the pool see the other connections the server ended at the same moment (a failover ends them all).
      await new Promise((r) => setTimeout(r, 50));
      const fresh = await client.acquireConnection();
      try {
        return await query(fresh, obj);
      } finally {
        await client.releaseConnection(fresh);
      }
    }
  };
  return db;
}

/**
 * Runs an idempotent write again when its connection broke, up to `tries` times, each on a
 * connection the pool hands out afresh (the broken one is disposed; a short pause lets the pool
 * notice its other connections the server dropped at the same moment).
 */
export async function retryOnBrokenConnection<T>(fn: () => Promise<T>, tries = 3, pauseMs = 100): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= tries || !isBrokenConnection(err)) throw err;
      await new Promise((r) => setTimeout(r, pauseMs * attempt));
    }
  }
}
