import type { Context, Next } from 'koa';
import { timingSafeEqual } from 'node:crypto';
import { httpRequests, httpSeconds, METRICS_CONTENT_TYPE, metricsText, searchSeconds, withEngineTiming } from '../../../shared/platform/metrics.js';
import { AppError } from '../../../shared/platform/errors.js';

/** Routes whose latency is also split into engine and service time. */
function searchKind(route: string): 'search' | 'suggest' | null {
  if (route.includes('suggest')) return 'suggest';
  if (route === '/v1/search' || route.startsWith('/1/indexes')) return 'search';
  return null;
}

/**
 * Counts every request and its latency per method, route pattern (not the raw path: ids would
 * make a series each) and status; search and suggest also by engine and service time.
 */
export async function requestMetrics(ctx: Context, next: Next) {
  const t0 = performance.now();
  const timing = { engineS: 0 };
  try {
    // The engine scope only around search-like paths: other requests skip the AsyncLocalStorage.
    if (ctx.path === '/v1/search' || ctx.path.startsWith('/v1/suggest') || ctx.path.startsWith('/1/indexes')) {
      await withEngineTiming(async (scope) => {
        try {
          await next();
        } finally {
          timing.engineS = scope.engineS;
        }
      });
    } else {
      await next();
    }
  } finally {
    const s = (performance.now() - t0) / 1000;
    const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
    const labels = { method: ctx.method, route, status: String(ctx.status) };
    httpRequests.inc(labels);
    httpSeconds.observe(labels, s);
    const kind = searchKind(route);
    if (kind && ctx.status < 400) {
      searchSeconds.observe({ kind, part: 'engine' }, timing.engineS);
      searchSeconds.observe({ kind, part: 'service' }, Math.max(0, s - timing.engineS));
    }
  }
}

/**
 * GET /metrics on the API port: only with `Authorization: Bearer <METRICS_TOKEN>`; 404 when no
 * token is configured. An operator endpoint, not part of the API (not in the OpenAPI document).
 */
export function metricsEndpoint(token: string | undefined) {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  // Every other request passes straight on (no async function, no promise of its own).
  return (ctx: Context, next: Next) => (ctx.path !== '/metrics' || ctx.method !== 'GET' ? next() : serve(ctx));
  async function serve(ctx: Context) {
    if (!expected) throw new AppError('route_not_found', 404, 'metrics are not served on this port (set METRICS_TOKEN or METRICS_PORT)');
    const given = Buffer.from(ctx.get('authorization'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError('unauthorized', 401, 'metrics need Authorization: Bearer <METRICS_TOKEN>');
    }
    ctx.type = METRICS_CONTENT_TYPE;
    ctx.body = await metricsText();
  }
}
