import { AppError } from './errors.js';

// SQLSTATEs of a connection Postgres ended or refused: admin/crash shutdown, cannot connect now,
// and class 08 (connection exception).
const PG_GONE = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '08007']);
const SOCKET_GONE = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const BROKEN_MESSAGES = [
  'Connection terminated', // pg: the server closed the socket (terminated backend, restart)
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
  'terminating connection due to administrator command',
];

/**
 * True when a database error says the connection itself broke (terminated backend, reset
 * socket), not the statement: the same statement on a fresh connection may well succeed.
 */
export function isBrokenConnection(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (PG_GONE.has(e.code) || SOCKET_GONE.has(e.code))) return true;
  return typeof e.message === 'string' && BROKEN_MESSAGES.some((m) => (e.message as string).includes(m));
}

/** Redis client errors that mean "Redis is down or too slow", never a bad command. */
function isRedisDown(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown } | null;
  if (!e || typeof e.message !== 'string') return false;
  return (
    e.name === 'MaxRetriesPerRequestError' ||
    e.message === 'Command timed out' ||
    e.message === 'Connection is closed.' ||
    e.message.startsWith("Stream isn't writeable") ||
    e.message.startsWith('Reached the max retries per request limit') ||
    e.name === 'DependencyTimeout'
  );
}

/** True when a failure is a dependency (Postgres, Redis) that cannot be reached, not our bug or bad input. */
export function isDependencyDown(err: unknown): boolean {
  if (isBrokenConnection(err) || isRedisDown(err)) return true;
  const e = err as { name?: unknown; message?: unknown } | null;
  // knex: every pooled connection busy or none could be opened within acquireConnectionTimeout.
  return !!e && (e.name === 'KnexTimeoutError' || (typeof e.message === 'string' && e.message.startsWith('Knex: Timeout acquiring a connection')));
}

/** Seconds a client should wait before retrying when a dependency is down. */
export const DEPENDENCY_RETRY_AFTER_S = 2;

/** The 503 a dependency failure is answered with, or null for any other error. */
export function dependencyUnavailable(err: unknown): AppError | null {
  if (!isDependencyDown(err)) return null;
  return new AppError('dependency_unavailable', 503, 'a service this request needs is unavailable; retry shortly', undefined, {
    'Retry-After': String(DEPENDENCY_RETRY_AFTER_S),
  });
}

/** Thrown by withDeadline: the dependency did not answer within the bound. */
export class DependencyTimeout extends Error {
  override name = 'DependencyTimeout';
}

/** Rejects with DependencyTimeout when `p` has not settled within `ms` (the work itself is not canceled). */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DependencyTimeout(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
