import type { Context } from 'koa';
import { AppError } from '../../../shared/platform/errors.js';
import type { ErrorBody } from '../../http/middleware/error-handler.js';
import type { AuthRule } from '../../http/middleware/auth.js';
import type { Scope } from '../../../shared/access/scopes.js';

/**
 * A header, or a query parameter of any case: the browser lite client sends credentials as
 * `x-algolia-api-key` query parameters (no CORS preflight), search-insights as `X-Algolia-API-Key`.
 */
function headerOrQuery(ctx: Context, name: string): string | null {
  const header = ctx.get(name);
  if (header) return header;
  for (const [k, v] of Object.entries(ctx.query)) if (k.toLowerCase() === name && typeof v === 'string' && v) return v;
  return null;
}

/** Auth for Algolia-protocol routes: the key from `x-algolia-api-key` (or the usual headers); then the same kind, origin, scope and rate checks. */
export function algoliaAuth(scope: Scope): AuthRule {
  return {
    scope,
    credential: (ctx) => {
      const key = headerOrQuery(ctx, 'x-algolia-api-key');
      if (key) return key;
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
      return bearer ? bearer[1] : ctx.get('x-api-key') || null;
    },
  };
}

/** `x-algolia-application-id` names the store: it must be the key's tenant id. */
export function checkApplication(ctx: Context): string {
  const tenantId: string = ctx.state.principal.tenantId;
  const app = headerOrQuery(ctx, 'x-algolia-application-id');
  if (!app) throw new AppError('application_missing', 403, 'x-algolia-application-id is required: the store id (tenant id) the key belongs to');
  if (app !== tenantId) throw new AppError('application_mismatch', 403, 'x-algolia-application-id is not the store of this key');
  return tenantId;
}

/** Algolia clients read `message` and `status` at the top of an error body; ours stays beside them under `error`. */
export function algoliaErrorBody(body: ErrorBody, status: number) {
  return { message: body.error.message, status, ...body };
}
