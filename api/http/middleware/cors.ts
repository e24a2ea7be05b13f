import type { Context, Next } from 'koa';

const ALLOW_HEADERS =
  'Authorization, X-API-Key, Content-Type, Idempotency-Key, X-Request-Id, X-Algolia-API-Key, X-Algolia-Application-Id, X-Algolia-Agent, X-Algolia-UserToken';
const EXPOSE_HEADERS = 'X-Request-Id, X-Service-Usage, Retry-After, Idempotent-Replayed';
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/**
 * CORS for browsers. Preflights carry no key, so they are answered for any origin; the real
 * request is then checked against the key's allowed_origins by the auth middleware.
 */
export function cors(ctx: Context, next: Next) {
  const origin = ctx.get('origin');
  if (!origin) return next();
  ctx.vary('Origin');
  ctx.set('Access-Control-Allow-Origin', origin);
  if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
    ctx.set('Access-Control-Allow-Methods', ALLOW_METHODS);
    ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
    return;
  }
  ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  return next();
}
