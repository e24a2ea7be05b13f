import t from 'tap';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { jsonBody, readBody } from '../../api/http/middleware/json-body.js';

// Large bodies (catalog batches) are parsed and handled a few at a time per process, so the
// objects of many batches never sit in one heap together; small bodies never wait for them.
let active = 0;
let most = 0;
const release: Array<() => void> = [];
const app = new Koa();
app.use(jsonBody(1024 * 1024, [], [], { bytes: 1000, concurrency: 1 }));
// A route reads its body when it asks for it (api/http/route.ts: after authentication).
app.use(readBody);
app.use(async (ctx) => {
  const body = ctx.request as unknown as { body: { items: number[] } };
  active++;
  most = Math.max(most, active);
  // A large body's handler holds on until the test lets it go.
  if (body.body.items.length > 100) await new Promise<void>((r) => release.push(r));
  active--;
  ctx.body = { n: body.body.items.length };
});
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
t.teardown(() => server.close());
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const post = (n: number) =>
  fetch(origin, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items: Array.from({ length: n }, (_, i) => i) }),
  }).then(async (r) => ((await r.json()) as { n: number }).n);

t.test('large bodies one at a time, small ones beside them', async (t) => {
  const large = [post(500), post(600), post(700)];
  for (let i = 0; i < 50 && !release.length; i++) await new Promise((r) => setTimeout(r, 10));
  t.equal(release.length, 1, 'one large body handled, the others wait');
  t.equal(await post(3), 3, 'a small body is not held behind them');
  while (release.length || active) {
    release.shift()?.();
    await new Promise((r) => setTimeout(r, 20));
  }
  t.same((await Promise.all(large)).sort(), [500, 600, 700], 'every large body answered, parsed');
  t.equal(most, 2, 'at most one large body at a time (and the small one beside it)');
});
