import type { Context, Next } from 'koa';
import { randomBytes } from 'node:crypto';

const SAFE_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Accepts a well-formed incoming X-Request-Id or makes one; echoes it on every response. */
export async function requestId(ctx: Context, next: Next) {
  const incoming = ctx.get('x-request-id');
  const id = SAFE_ID.test(incoming) ? incoming : `req_${randomBytes(9).toString('base64url')}`;
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  await next();
}
