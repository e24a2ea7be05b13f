import t from 'tap';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import { routesWithDirectMap } from '../../api/http/direct-routes.js';

/** The same routes served by the router alone and with the direct map in front; each answer shows what the route saw. */
function app(direct: boolean) {
  const router = new Router();
  const show = (name: string) => (ctx: Koa.Context) => {
    const c = ctx as Koa.Context & { _matchedRoute?: string; routerPath?: string; captures?: string[] };
    ctx.body = { name, params: ctx.params, matched: c._matchedRoute, routerPath: c.routerPath, captures: c.captures };
  };
  router.get('/a', show('get a'));
  router.post('/a', show('post a'));
  router.get('/items/:id', show('item'));
  // Also matched by /items/:id, which comes first: the router runs that one, so must the app with the map.
  router.get('/items/special', show('special'));
  router.use('/guarded', async (ctx, next) => {
    ctx.set('x-guard', 'yes');
    await next();
  });
  router.get('/guarded', show('guarded'));
  router.get(
    '/chain',
    async (ctx, next) => {
      ctx.state.seen = ['first'];
      await next();
      ctx.set('x-after', 'yes');
    },
    (ctx) => {
      ctx.body = { seen: [...ctx.state.seen, 'second'] };
    },
  );
  const a = new Koa();
  a.use(direct ? routesWithDirectMap(router) : router.routes());
  a.use(async (ctx) => {
    const matched = ((ctx as { matched?: Array<{ methods: string[] }> }).matched ?? []).flatMap((l) => l.methods);
    ctx.status = matched.length ? 405 : 404;
    ctx.body = { fallback: true, allow: [...new Set(matched)].sort() };
  });
  return a;
}

async function serve(a: Koa) {
  const server = a.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

t.test('the direct map answers every request as the router does', async (t) => {
  const plain = await serve(app(false));
  const mapped = await serve(app(true));
  t.teardown(async () => {
    await plain.close();
    await mapped.close();
  });
  const requests: Array<[string, string]> = [
    ['GET', '/a'],
    ['POST', '/a'],
    ['HEAD', '/a'],
    ['PUT', '/a'],
    ['GET', '/a/'],
    ['GET', '/A'],
    ['GET', '/a?x=1'],
    ['GET', '/items/7'],
    ['GET', '/items/special'],
    ['GET', '/guarded'],
    ['GET', '/chain'],
    ['GET', '/nowhere'],
    ['DELETE', '/items/7'],
  ];
  for (const [method, path] of requests) {
    const [x, y] = await Promise.all([plain, mapped].map((s) => fetch(s.base + path, { method })));
    const headers = (r: Response) => ['x-guard', 'x-after', 'content-type'].map((h) => r.headers.get(h));
    t.equal(y.status, x.status, `${method} ${path}: status`);
    t.same(headers(y), headers(x), `${method} ${path}: headers`);
    t.same(await y.text(), await x.text(), `${method} ${path}: body`);
  }
});

t.test('a thrown error and a rejected next reach the app as they do through the router', async (t) => {
  for (const direct of [false, true]) {
    const router = new Router();
    router.get('/boom', () => {
      throw new Error('sync');
    });
    router.get('/later', async () => {
      await new Promise((r) => setImmediate(r));
      throw new Error('async');
    });
    const a = new Koa();
    a.use(async (ctx, next) => {
      try {
        await next();
      } catch (err) {
        ctx.body = { caught: (err as Error).message };
      }
    });
    a.use(direct ? routesWithDirectMap(router) : router.routes());
    const s = await serve(a);
    t.same(await (await fetch(`${s.base}/boom`)).json(), { caught: 'sync' }, `direct=${direct}`);
    t.same(await (await fetch(`${s.base}/later`)).json(), { caught: 'async' }, `direct=${direct}`);
    await s.close();
  }
});
