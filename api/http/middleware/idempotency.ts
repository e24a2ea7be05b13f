import type { Context, Next } from 'koa';
import { AppError } from '../../../shared/platform/errors.js';
import type { Deps } from '../../../shared/deps.js';
import { canonicalJson, sha256 } from '../../../shared/platform/ids.js';
import { errorBody } from './error-handler.js';

const KEY_PATTERN = /^[A-Za-z0-9_\-:.]{8,255}$/;

/**
 * Idempotency-Key: the first request with a key runs and its answer (2xx or 4xx) is kept
 * for the retention period; a retry with the same body replays it (status, body and the headers
 * the route documents, such as X-Job-Id), a different body or a
 * concurrent duplicate gets 409. A 5xx, 429, 402, any 400 or an answer with Retry-After frees the
 * key so the retry runs again. The claim is a short lease renewed while the request runs, so the key of a
 * request whose process died, or whose release could not reach the database, frees itself. An
 * answer Postgres cannot take when the request finishes is kept in Redis until it can
 * (IdempotencyStore): a write is answered only once its answer is kept somewhere a retry looks.
 * The request is fingerprinted by its method, the path the router matched (`routePath` with the
 * decoded parameters, see matchedPath) and its body (or `requestText`).
 */
export function idempotency(deps: Deps, requestText?: (input: never) => string, replayHeaders: readonly string[] = [], routePath?: string) {
  return async (ctx: Context, next: Next) => {
    // An empty header was sent (a client meant a key and has none): refused like any other malformed key.
    if (ctx.headers['idempotency-key'] === undefined) return next();
    const key = ctx.get('idempotency-key');
    if (!KEY_PATTERN.test(key)) {
      throw new AppError('invalid_idempotency_key', 400, 'Idempotency-Key must match ^[A-Za-z0-9_\\-:.]{8,255}$', [
        { field: 'Idempotency-Key', code: 'pattern', message: '8 to 255 of A-Z a-z 0-9 _ - : .' },
      ]);
    }
    const tenantId: string = ctx.state.principal.tenantId;
    const path = routePath ? matchedPath(routePath, ctx.params ?? {}) : ctx.path;
    const bodyHash = () => sha256(`${ctx.method} ${path}\n${canonicalJson((ctx.request as { body?: unknown }).body ?? null)}`);
    const hash = requestText ? sha256(`${ctx.method} ${path}\n${requestText(ctx.state.input as never)}`) : bodyHash();
    const repo = deps.repos.idempotency;
    const store = deps.idempotency;
    const claim = await store.claim(tenantId, key, hash);
    if (!claim.owned) {
      const existing = claim.row;
      // A key claimed before its route had a requestText (a retry across a deploy) holds the body's hash.
      if (existing.request_hash !== hash && !(requestText && existing.request_hash === bodyHash())) {
        throw new AppError('idempotency_key_reused', 409, 'this Idempotency-Key was used with a different request');
      }
      if (existing.state === 'in_flight') {
        throw new AppError('idempotency_in_progress', 409, 'a request with this Idempotency-Key is still in progress', undefined, { 'Retry-After': '1' });
      }
      const kept = repo.replay(existing);
      ctx.status = existing.status_code ?? 200;
      ctx.body = kept.body;
      ctx.set(kept.headers);
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    const renewal = setInterval(() => void repo.renew(tenantId, key, hash).catch(() => undefined), (repo.leaseS * 1000) / 3);
    // A release that fails too (the database is down) must not hide the request's own error: the lease lapses instead.
    const release = () => repo.release(tenantId, key).catch((err) => deps.logger.warn('idempotency key not released; its lease will lapse', { err }));
    try {
      await next();
    } catch (err) {
      clearInterval(renewal);
      // A request the handler refused as invalid (any 400: validation_failed, unknown_filter, an
      // unreadable file, ...) never ran (nor did one told to come back later: a 429, or any answer
      // with Retry-After such as 409 billing_change_in_progress; nor one the store's plan does not
      // cover yet, 402): free the key so the corrected retry, the later one, or the one after a
      // change of plan, runs instead of being called a reuse or answered the refusal again.
      const later = err instanceof AppError && (err.status === 429 || err.headers?.['Retry-After'] !== undefined);
      if (err instanceof AppError && err.status < 500 && err.status !== 400 && err.status !== 402 && !later) {
        // Kept nowhere (Postgres and Redis down): the refusal is still the answer; a retry is refused again.
        await store
          .keep(tenantId, key, hash, err.status, errorBody(err, ctx.state.requestId))
          .catch((e) => deps.logger.warn('idempotency refusal not kept', { err: e }));
      } else {
        await release();
      }
      throw err;
    }
    clearInterval(renewal);
    if (ctx.status >= 500) await release();
    else await store.keep(tenantId, key, hash, ctx.status, ctx.body ?? null, setHeaders(ctx, replayHeaders));
  };
}

/** The headers among `names` that the answer carries: what a replay must answer again besides the body. */
function setHeaders(ctx: Context, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = ctx.response.get(name);
    if (value) out[name] = value;
  }
  return out;
}

/**
 * The resource a request names, one way however it was written: the route's path with each
 * parameter as the router decoded it, percent-encoded again one canonical way (what a URL
 * library sends: upper-case escapes of UTF-8, and the characters RFC 3986 allows in a segment
 * left as they are). `/v1/products/%61`, `/v1/products/a` and `/v1/products/a/` give
 * `/v1/products/a`; `/v1/products/a%2Fb` stays apart from a path of two segments. A path written
 * that way gives itself, so a key claimed before this fingerprint keeps its hash.
 */
export function matchedPath(routePath: string, params: Record<string, string>): string {
  return routePath.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(params[name] ?? ''));
}

/** encodeURIComponent, with the sub-delims, `:` and `@` (allowed in a path segment) left as they are. */
function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/%(24|26|2B|2C|3B|3D|3A|40)/g, (escape) => decodeURIComponent(escape));
}
