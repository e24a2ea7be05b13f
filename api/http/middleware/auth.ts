import type { Context, Next } from 'koa';
import { AppError } from '../../../shared/platform/errors.js';
import type { Deps } from '../../../shared/deps.js';
import type { Principal, PrincipalKind } from '../../../shared/access/authenticator.js';
import { PUBLIC_SCOPES, type Scope } from '../../../shared/access/scopes.js';

export interface AuthRule {
  /** The scope the route needs; null: any valid credential of the allowed kinds. */
  scope: Scope | null;
  /** Principal kinds allowed; default: public keys only for shopper-facing scopes. */
  kinds?: PrincipalKind[];
  /** Where the credential comes from; default `Authorization: Bearer` or `X-API-Key` (credentialOf). */
  credential?: (ctx: Context) => string | null;
}

/** Reads `Authorization: Bearer <key>` (or `X-API-Key: <key>`). */
export function credentialOf(ctx: Context): string | null {
  const header = ctx.get('authorization');
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new AppError('key_invalid', 401, 'Authorization must be "Bearer <key>"');
    return match[1];
  }
  return ctx.get('x-api-key') || null;
}

/** Authenticates, checks kind, origin and scope, and applies the per-credential rate limit. */
export function auth(deps: Deps, rule: AuthRule) {
  const kinds = rule.kinds ?? (rule.scope === null || PUBLIC_SCOPES.includes(rule.scope) ? ['public', 'secret', 'session'] : ['secret', 'session']);
  const limits = deps.config.rateLimits;
  return async (ctx: Context, next: Next) => {
    const token = rule.credential ? rule.credential(ctx) : credentialOf(ctx);
    if (!token) throw new AppError('key_missing', 401, 'an API key is required: send "Authorization: Bearer <key>"');
    const p: Principal = await deps.auth.authenticate(token, ctx.ip);
    if (!kinds.includes(p.kind)) {
      throw new AppError('key_kind_not_allowed', 403, `a ${p.kind} credential cannot call this endpoint (needs ${kinds.join(' or ')})`);
    }
    if (p.kind === 'public') checkOrigin(ctx, p);
    if (rule.scope !== null && !p.scopes.has(rule.scope)) {
      throw new AppError('scope_missing', 403, `this key lacks the "${rule.scope}" scope`, { required_scope: rule.scope });
    }
    const wait = deps.rateLimiter.take(p.id, limits[p.kind === 'session' ? 'session' : p.kind]);
    if (wait > 0) {
      throw new AppError('rate_limited', 429, 'too many requests for this key', { retry_after_s: wait }, { 'Retry-After': String(wait) });
    }
    ctx.state.principal = p;
    await next();
  };
}

function checkOrigin(ctx: Context, p: Principal) {
  const origin = ctx.get('origin');
  if (!origin) throw new AppError('origin_missing', 403, 'public keys are for browsers: the request needs an Origin header');
  if (!p.allowedOrigins.some((allowed) => originMatches(allowed, origin))) {
    throw new AppError('origin_not_allowed', 403, `origin ${origin} is not in this key's allowed_origins`);
  }
}

/**
 * Exact match, or `https://*.example.com` for any subdomain of example.com. Both sides are compared
 * as browsers write an Origin: lower case, without the scheme's default port (:443, :80).
 */
export function originMatches(allowedAsWritten: string, originAsSent: string): boolean {
  const allowed = canonicalOrigin(allowedAsWritten);
  const origin = canonicalOrigin(originAsSent);
  if (allowed === origin) return true;
  const star = allowed.indexOf('://*.');
  if (star < 0) return false;
  const scheme = allowed.slice(0, star + 3);
  const suffix = allowed.slice(star + 4);
  return origin.startsWith(scheme) && origin.endsWith(suffix) && origin.length > scheme.length + suffix.length;
}

/** `HTTPS://Shop.Example:443` as a browser sends it: `https://shop.example`. */
function canonicalOrigin(origin: string): string {
  const lower = origin.toLowerCase();
  if (lower.startsWith('https://') && lower.endsWith(':443')) return lower.slice(0, -4);
  if (lower.startsWith('http://') && lower.endsWith(':80')) return lower.slice(0, -3);
  return lower;
}
