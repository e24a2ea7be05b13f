import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from '../shared/deps.js';
import { AppError } from '../shared/platform/errors.js';
import { errorHandler } from './http/middleware/error-handler.js';
import { requestId } from './http/middleware/request-id.js';
import { metricsEndpoint, requestMetrics } from './http/middleware/metrics.js';
import { watchQueues } from '../shared/platform/metrics.js';
import { queueDashboard } from './http/queue-dashboard.js';
import { cors } from './http/middleware/cors.js';
import { answerClientErrors } from './http/client-errors.js';
import { jsonBody } from './http/middleware/json-body.js';
import { mountRoutes, type RouteSpec } from './http/route.js';
import { routesWithDirectMap } from './http/direct-routes.js';
import { useFastQuery } from './http/query.js';
import { buildOpenApi } from './http/openapi.js';
import { AREAS } from '../areas.js';
import { ALGOLIA_PREFIX } from '../shared/storefront/index.js';
import { algoliaErrorBody } from './routes/storefront/algolia.js';
import { WEBHOOKS_PREFIX } from './routes/billing/webhooks.routes.js';
import { IMPORT_BODY_BYTES, IMPORT_PATH } from './routes/synonyms/synonym-files.routes.js';

/** Every area's routes; the OpenAPI document is generated from exactly this list. */
export function allRoutes(deps: Deps): RouteSpec[] {
  return AREAS.flatMap((area) => area.routes?.(deps) ?? []);
}

/** Builds the Koa app (no listen: tests call app.callback()). */
export function createApp(deps: Deps): Koa {
  // The client address (failed-auth throttling) comes from X-Forwarded-For only through proxies we run; anyone can write that header.
  const hops = deps.config.trustedProxyHops;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  app.silent = true;
  useFastQuery(app);
  // Every server made from this app (main's and the tests') answers parser-level errors with the error body too.
  const listen = app.listen.bind(app);
  app.listen = ((...args: Parameters<typeof listen>) => {
    const server = listen(...args);
    answerClientErrors(server);
    return server;
  }) as typeof app.listen;
  const routes = allRoutes(deps);
  const openapi = JSON.stringify(buildOpenApi(routes));
  // Paths are case-sensitive: /V1/keys is no route (spec 9: every path carries the prefix /v1).
  const router = new Router({ sensitive: true });
  router.get('/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openapi;
  });
  mountRoutes(router, deps, routes);
  const queueNames = [...new Set(AREAS.flatMap((a) => a.pipeline?.stages.map((s) => s.queue) ?? []))];
  watchQueues({ alive: () => !deps.queues.closed, names: () => queueNames, counts: (q) => deps.queues.get(q).getJobCounts() });

  app.use(requestId);
  app.use(requestMetrics);
  app.use(errorHandler(deps.logger));
  app.use(queueDashboard(deps, queueNames));
  app.use(metricsEndpoint(deps.config.ops.metricsToken));
  app.use(cors);
  app.use(jsonBody(deps.config.bodyLimitBytes, [`${ALGOLIA_PREFIX}/`], [WEBHOOKS_PREFIX], deps.config.largeBodies, { [IMPORT_PATH]: IMPORT_BODY_BYTES }));
  app.use(routesWithDirectMap(router));
  // Only reached when no route handled the request.
  app.use(async (ctx) => {
    // Under the Algolia prefix the error has the protocol's top-level message and status, as its routes' errors do.
    if (ctx.path === ALGOLIA_PREFIX || ctx.path.startsWith(`${ALGOLIA_PREFIX}/`)) ctx.state.errorBody = algoliaErrorBody;
    const layers = ((ctx as { matched?: Array<{ methods: string[] }> }).matched ?? []).flatMap((l) => l.methods);
    if (layers.length) {
      const allow = [...new Set([...layers, 'OPTIONS'])].join(', ');
      // OPTIONS asks which methods a path takes (RFC 9110 9.3.7); a CORS preflight was answered before this (cors.ts).
      if (ctx.method === 'OPTIONS') {
        ctx.set('Allow', allow);
        ctx.status = 204;
        return;
      }
      throw new AppError('method_not_allowed', 405, `${ctx.method} is not allowed on ${ctx.path}`, undefined, { Allow: allow });
    }
    throw new AppError('route_not_found', 404, `no route for ${ctx.method} ${ctx.path}`);
  });
  return app;
}
