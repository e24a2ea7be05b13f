import type Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import compose from 'koa-compose';

type Layer = Router['stack'][number];

/**
 * The router's middleware with a direct map in front. @koa/router tests every route's pattern in
 * turn on each request (about a hundred here, the hot ones last); a request whose method and exact
 * path is a route without parameters runs that route's chain from a map lookup instead, with the
 * context the router would have set. Only paths the router itself sends to that one route alone
 * are mapped (checked with its own matcher at start); anything else (parameters, a trailing slash,
 * other letter case, unknown paths, 405s) goes through the router as before.
 */
export function routesWithDirectMap(router: Router): Middleware {
  const routed = router.routes() as unknown as Middleware;
  const direct = new Map<string, Map<string, (ctx: Context, next: Next) => Promise<unknown>>>();
  for (const layer of router.stack) {
    const path = layer.path;
    if (typeof path !== 'string' || layer.paramNames.length || !layer.methods.length || !/^[A-Za-z0-9/._-]+$/.test(path)) continue;
    for (const method of layer.methods) {
      const found = router.match(path, method);
      if (found.pathAndMethod.length !== 1 || found.pathAndMethod[0] !== layer) continue;
      let byPath = direct.get(method);
      if (!byPath) direct.set(method, (byPath = new Map()));
      if (!byPath.has(path)) byPath.set(path, runLayer(router, layer, path, found.path));
    }
  }
  const dispatch: Middleware & { router?: Router } = (ctx, next) => {
    const run = direct.get(ctx.method)?.get(ctx.path);
    return run ? run(ctx, next) : routed(ctx, next);
  };
  // As on the router's own middleware: the app's router can be found from its middleware list.
  dispatch.router = router;
  return dispatch;
}

/** The layer's chain with what @koa/router's dispatch sets on the context first (matched layers, route path, empty params). */
function runLayer(router: Router, layer: Layer, path: string, matched: Layer[]) {
  const chain = compose(layer.stack as unknown as Middleware[]);
  const name = layer.name || undefined;
  return (ctx: Context, next: Next) => {
    const c = ctx as Context & Record<string, unknown>;
    c.matched = matched.slice();
    c.router = router;
    c.routeMatched = true;
    c._matchedRoute = path;
    if (name) c._matchedRouteName = name;
    c.captures = [];
    c.params = (ctx.request as { params?: Record<string, string> }).params = {};
    c.routerPath = path;
    c.routerName = name;
    return chain(ctx, next);
  };
}
