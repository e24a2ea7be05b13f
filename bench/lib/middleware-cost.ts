import { requestMetrics } from '../../api/http/middleware/metrics.js';
import { requestId } from '../../api/http/middleware/request-id.js';

/**
 * CPU per request of what the logging and metrics change added to every request (request-id's
 * log scope, the metrics middleware with a search route's engine timing), measured in process
 * with process.cpuUsage over many calls: less sensitive to a busy machine than HTTP latency.
 */
export async function middlewareCostMicros(n = 200_000): Promise<{ plain: number; scoped: number; search: number }> {
  const ctx = (path: string) =>
    ({
      path,
      method: 'GET',
      status: 200,
      state: {} as Record<string, unknown>,
      _matchedRoute: path,
      get: () => '',
      set: () => undefined,
    }) as never;
  const measure = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < 10_000; i++) await fn();
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await fn();
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / n;
  };
  const noop = async () => undefined;
  const plain = await measure(() => noop());
  const scoped = await measure(() => requestId(ctx('/v1/keys'), () => requestMetrics(ctx('/v1/keys'), noop)));
  const search = await measure(() => requestId(ctx('/v1/search'), () => requestMetrics(ctx('/v1/search'), noop)));
  return { plain, scoped: scoped - plain, search: search - plain };
}
