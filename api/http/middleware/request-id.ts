import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';
import { withLogScope } from '../../../shared/platform/logger.js';

const SAFE_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * Accepts a well-formed incoming X-Request-Id or makes one (randomUUID draws from a cached entropy
 * pool: no syscall per request); echoes it on every response, and every log line written while
 * serving the request carries it.
 */
export function requestId(ctx: Context, next: Next) {
  const incoming = ctx.get('x-request-id');
  const id = SAFE_ID.test(incoming) ? incoming : `req_${randomUUID()}`;
  ctx.state.requestId = id;
  // Straight to Node (Koa's set() builds arrays and closures for one header); nothing is sent yet.
  ctx.res.setHeader('X-Request-Id', id);
  return withLogScope({ request_id: id }, next);
}
