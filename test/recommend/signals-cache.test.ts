import t from 'tap';
import { SignalsCache } from '../../shared/recommend/signals-cache.js';

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

/** A repository whose rows the test changes, counting loads. */
function repo() {
  const r = {
    loads: 0,
    fail: false,
    rows: [
      { product_id: 'a', other_id: 'b' },
      { product_id: 'a', other_id: 'c' },
      { product_id: 'b', other_id: 'a' },
    ],
    trends: [
      { product_id: 'c', category_ids: ['shoes'] },
      { product_id: 'a', category_ids: ['bags'] },
      { product_id: 'b', category_ids: ['shoes', 'lvl:0:shoes'] },
    ],
    async allCoViews(_tenant: string, limit: number) {
      r.loads++;
      if (r.fail) throw new Error('database down');
      return r.rows.slice(0, limit);
    },
    dbReads: 0,
    async coViews(_tenant: string, product: string, limit: number) {
      r.dbReads++;
      return r.rows
        .filter((c) => c.product_id === product)
        .map((c) => c.other_id)
        .slice(0, limit);
    },
    lists: [{ product_id: 'a', ids: ['c', 'b'] }],
    async allSimilar(_tenant: string, limit: number) {
      return r.lists.slice(0, limit);
    },
    async topTrends(_tenant: string, limit: number) {
      return r.trends.slice(0, limit);
    },
  };
  return r;
}

t.test('co-views and trends come from one load per store', async (t) => {
  const r = repo();
  const cache = new SignalsCache(r);
  t.same(await cache.coViews('t1', 'a', 5), ['b', 'c'], 'best first, as stored');
  t.same(await cache.coViews('t1', 'a', 1), ['b']);
  t.same(await cache.coViews('t1', 'zz', 5), [], 'a product without co-views');
  t.same(await cache.trending('t1', null, 2), ['c', 'a']);
  t.same(await cache.trending('t1', 'shoes', 5), ['c', 'b'], 'per category, in trend order');
  t.same(await cache.trending('t1', 'toys', 5), [], 'a category with no trend: the next source answers');
  t.same(await cache.similar('t1', 'a'), ['c', 'b'], 'the similar list computed by learn-events');
  t.equal(await cache.similar('t1', 'b'), null, 'none computed: the caller scans');
  t.equal(r.loads, 1);
  await cache.coViews('t2', 'a', 5);
  t.equal(r.loads, 2, 'each store loads its own');
});

t.test('a signals notice reloads at once; requests after it see the new rows', async (t) => {
  const r = repo();
  const cache = new SignalsCache(r);
  t.same(await cache.coViews('t1', 'a', 5), ['b', 'c']);
  r.rows = [{ product_id: 'a', other_id: 'd' }];
  t.same(await cache.coViews('t1', 'a', 5), ['b', 'c'], 'held until told');
  cache.changed('t1');
  t.same(await cache.coViews('t1', 'a', 5), ['d']);
  cache.changed('t9');
  t.equal(r.loads, 2, 'a notice for a store not held loads nothing');
});

t.test('after the time to live the old copy answers while the new one loads', async (t) => {
  const r = repo();
  const cache = new SignalsCache(r, 1);
  t.same(await cache.coViews('t1', 'a', 5), ['b', 'c']);
  r.rows = [{ product_id: 'a', other_id: 'd' }];
  await sleep(5);
  t.same(await cache.coViews('t1', 'a', 5), ['b', 'c'], 'the old copy answers');
  await sleep(5);
  t.same(await cache.coViews('t1', 'a', 5), ['d'], 'then the new one');
});

t.test('a failed load is not held: the next request tries again', async (t) => {
  const r = repo();
  const cache = new SignalsCache(r);
  r.fail = true;
  await t.rejects(cache.coViews('t1', 'a', 5));
  r.fail = false;
  t.same(await cache.coViews('t1', 'a', 5), ['b', 'c']);
  // A failed background reload keeps the old copy and retries on the next request.
  const slow = new SignalsCache(r, 1);
  await slow.coViews('t1', 'a', 5);
  r.fail = true;
  await sleep(5);
  t.same(await slow.coViews('t1', 'a', 5), ['b', 'c']);
  await sleep(5);
  r.fail = false;
  r.rows = [{ product_id: 'a', other_id: 'e' }];
  t.same(await slow.coViews('t1', 'a', 5), ['b', 'c'], 'still the old copy');
  await sleep(5);
  t.same(await slow.coViews('t1', 'a', 5), ['e']);
});

t.test('a store with more co-view rows than held reads them per request', async (t) => {
  const r = repo();
  const cache = new SignalsCache(r, 60_000, 2);
  t.same(await cache.coViews('t1', 'a', 5), ['b', 'c']);
  t.equal(r.dbReads, 1, 'read from the repository');
  t.same(await cache.trending('t1', null, 1), ['c'], 'trends are still held');
  const held = new SignalsCache(r, 60_000, 3);
  t.same(await held.coViews('t1', 'a', 5), ['b', 'c']);
  t.equal(r.dbReads, 1, 'at the limit: held');
});
