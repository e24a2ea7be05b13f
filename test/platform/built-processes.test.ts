import t from 'tap';
import { execFileSync } from 'node:child_process';
import { setup } from '../helpers/harness.js';
import { spawnApi, spawnWorker } from '../helpers/processes.js';
import { eventually } from '../helpers/workers.js';

// The Dockerfile and compose.yaml run the code compiled to dist/ (`npm run api:built`,
// `npm run workers:built`), not the sources through tsx: the compiled processes must start, take a
// catalog batch, index it and answer searches and suggestions as the tsx ones do.
const h = await setup();
t.teardown(() => h.close());

t.test('the compiled API and workers take a batch, index it and answer a search', async (t) => {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
  const api = await spawnApi(t, h.config, {}, true);
  const worker = spawnWorker(t, h.config, {}, true);
  const { key } = await h.tenant();
  const upsert = [
    { id: 'b1', name: { en: 'Compiled walnut desk', ar: 'مكتب جوز' }, price: 120, currency: 'USD', brand: 'Oakline' },
    { id: 'b2', name: { en: 'Compiled pine shelf' }, price: 40, currency: 'USD' },
  ];
  const res = await api.call('POST', '/v1/products/batch', { key, body: { upsert } });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.equal(res.body.upserted, 2);
  let hits: Array<{ id: string }> = [];
  await eventually(async () => {
    const found = await api.call('GET', '/v1/search?q=walnut', { key });
    hits = found.body.hits ?? [];
    return hits.length > 0;
  }, 30_000).catch((err) => {
    throw new Error(`${err}\napi: ${api.log()}\nworker: ${worker.log()}`);
  });
  t.same(
    hits.map((x) => x.id),
    ['b1'],
  );
  const arabic = await api.call('GET', `/v1/search?q=${encodeURIComponent('مكتب')}`, { key });
  t.same(
    arabic.body.hits.map((x: { id: string }) => x.id),
    ['b1'],
  );
  const suggest = await api.call('GET', '/v1/suggest?q=compiled', { key });
  t.equal(suggest.status, 200);
  t.ok(suggest.body.products.length >= 1, 'suggest previews from the compiled process');
  const bad = await api.call('GET', '/v1/search?q=x&filter[nope]=1', { key });
  t.equal(bad.status, 400);
  t.equal(bad.body.error.code, 'unknown_filter');
});
