import t from 'tap';
import { setup } from '../helpers/harness.js';

const h = await setup({ BILLING_DEFAULT_PLAN: 'free' });
t.teardown(() => h.close());
const tenant = await h.tenant();
const product = (id: string, price = 5) => ({ id, name: { en: `Quota kettle ${id}` }, price, currency: 'USD' });
const batch = (body: unknown) => h.api.call('POST', '/v1/products/batch', { key: tenant.key, body });

t.test('products_limit: new products past the free plan limit fail one by one, the rest applies', async (t) => {
  const first = await batch({ upsert: Array.from({ length: 990 }, (_, i) => product(`p${i}`)) });
  t.equal(first.status, 200);
  t.equal(first.body.upserted, 990);
  // 5 updates of stored products, then 20 new: room for 10.
  const upsert = [...Array.from({ length: 5 }, (_, i) => product(`p${i}`, 9)), ...Array.from({ length: 20 }, (_, i) => product(`n${i}`))];
  const second = await batch({ upsert });
  t.equal(second.status, 200);
  t.equal(second.body.upserted, 15, '5 updates + 10 new');
  t.equal(second.body.errors.length, 10);
  t.same(
    second.body.errors.map((e: { index: number }) => e.index),
    [15, 16, 17, 18, 19, 20, 21, 22, 23, 24],
  );
  t.ok(second.body.errors.every((e: { code: string; id: string }) => e.code === 'products_limit_reached' && e.id.startsWith('n')));
  t.equal(await h.api.deps.repos.products.count(tenant.id), 1000);
  // Deletes in the same batch make room.
  const third = await batch({ upsert: [product('m1'), product('m2'), product('m3')], delete: ['p10', 'p11'] });
  t.equal(third.body.upserted, 2);
  t.equal(third.body.deleted, 2);
  t.same(
    third.body.errors.map((e: { id: string; code: string }) => [e.id, e.code]),
    [['m3', 'products_limit_reached']],
  );
  const usage = await h.api.call('GET', '/v1/usage', { key: tenant.key });
  t.match(
    usage.body.metrics.find((m: { metric: string }) => m.metric === 'products_indexed'),
    { used: 1000, limit: 1000, percent: 100 },
  );
});
