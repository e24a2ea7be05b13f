import t from 'tap';
import Koa from 'koa';
import { createRequire } from 'node:module';
import { parseQuery, useFastQuery } from '../../api/http/query.js';

/** Koa's own parse, which parseQuery replaces on the app. */
const koaParams = createRequire(import.meta.url)('koa/lib/search-params.js') as { parse(s: string): Record<string, unknown> };

const texts = [
  '',
  'type=similar&limit=10&product_id=3920564&session=bench-1',
  'a=1&a=2&b=3&a=4',
  'a&b=&=c&&d=1=2',
  'q=caf%C3%A9+cr%C3%A8me&x=%2B%26%3D',
  'bad=%E0%A4%A&lone=%&percent=50%',
  '__proto__=x&constructor=y&toString=z&hasOwnProperty=1',
  '__proto__=1&__proto__=2',
  'k%00=v%00&%F0%9F%98%80=emoji',
  'a[]=1&a[]=2&b[c]=3',
  'x=1;y=2',
];

t.test("parseQuery gives what Koa's parse gives, keys, order, repeats and prototype included", async (t) => {
  for (const text of texts) {
    const ours = parseQuery(text);
    const koa = koaParams.parse(text);
    t.same(Object.entries(ours), Object.entries(koa), JSON.stringify(text));
    t.equal(Object.getPrototypeOf(ours), Object.getPrototypeOf(koa), `${JSON.stringify(text)}: prototype`);
  }
});

t.test('ctx.query on the app uses it; setting ctx.query still writes the query string', async (t) => {
  const app = new Koa();
  useFastQuery(app);
  let seen: unknown;
  let rewritten = '';
  app.use((ctx) => {
    seen = ctx.query;
    t.equal(ctx.query, seen, 'cached per query string');
    ctx.query = { z: ['1', '2'] };
    rewritten = ctx.querystring;
    ctx.body = 'ok';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as { port: number }).port;
  await (await fetch(`http://127.0.0.1:${port}/x?a=1&a=2&b=%C3%A9`)).text();
  server.close();
  t.same(Object.entries(seen as object), [
    ['a', ['1', '2']],
    ['b', 'é'],
  ]);
  t.equal(rewritten, 'z=1&z=2');
});
