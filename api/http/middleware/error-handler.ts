import type { Context, Next } from 'koa';
import { AppError } from '../../../shared/platform/errors.js';
import { dependencyUnavailable } from '../../../shared/platform/dependency-errors.js';
import type { Logger } from '../../../shared/platform/logger.js';

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown; request_id: string };
}

/** Turns the standard error body into the one a route's clients read (set per route: RouteSpec.errorBody). */
export type ErrorBodyShaper = (body: ErrorBody, status: number) => unknown;

/** The error body every failure is answered with. */
export function errorBody(err: AppError, requestId: string): ErrorBody {
  const error: ErrorBody['error'] = { code: err.code, message: err.message, request_id: requestId };
  if (err.details !== undefined) error.details = err.details;
  return { error };
}

/** First in the chain: turns every throw into the error body; unknown errors become internal_error. */
export function errorHandler(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (thrown) {
      const err = thrown instanceof AppError ? thrown : (fromKoa(thrown) ?? fromDb(thrown) ?? dependencyUnavailable(thrown));
      if (err?.code === 'dependency_unavailable') {
        logger.warn('dependency unavailable', { err: thrown, request_id: ctx.state.requestId, path: ctx.path, method: ctx.method });
      } else if (!err) {
        logger.error('unhandled error', { err: thrown, request_id: ctx.state.requestId, path: ctx.path, method: ctx.method });
      } else if (err.code === 'query_timeout') {
        logger.warn('statement timeout on a request path', {
          request_id: ctx.state.requestId,
          path: ctx.path,
          method: ctx.method,
          query: ctx.querystring.slice(0, 300),
        });
      }
      const known = err ?? new AppError('internal_error', 500, 'internal error');
      ctx.status = known.status;
      const body = errorBody(known, ctx.state.requestId);
      const shape = ctx.state.errorBody as ErrorBodyShaper | undefined;
      ctx.body = shape ? shape(body, known.status) : body;
      for (const [name, value] of Object.entries(known.headers ?? {})) ctx.set(name, value);
    }
  };
}

/** Errors raised by Koa itself (e.g. ctx.throw) carry an expose flag and a status. */
function fromKoa(err: unknown): AppError | null {
  const e = err as { status?: number; expose?: boolean; message?: string };
  if (e && typeof e.status === 'number' && e.expose && e.status < 500) {
    return new AppError(e.status === 404 ? 'not_found' : 'bad_request', e.status, e.message ?? 'bad request');
  }
  return null;
}

/** Postgres refuses text holding U+0000 (22021) or a bad escape in jsonb (22P05). The route layer's text check stops both first; this is the backstop. */
function fromDb(err: unknown): AppError | null {
  const code = (err as { code?: unknown })?.code;
  if (code === '57014') {
    return new AppError(
      'query_timeout',
      503,
      'the query took longer than the request path allows and was stopped; try again, or ask for less (fewer words, filters or facets)',
      undefined,
      { 'Retry-After': '1' },
    );
  }
  if (code === '22021' || code === '22P05') {
    return new AppError('invalid_text', 400, 'the request contains text that cannot be stored (a lone surrogate such as \\ud800, or \\u0000)');
  }
  return null;
}
