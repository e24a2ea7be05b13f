import t from 'tap';
import { RefreshingCache } from '../../shared/search/refreshing-cache.js';
import type { ProductCard } from '../../shared/engines/lexical/port.js';

const card = (id: string) => ({ id }) as unknown as ProductCard;
const settle = () => new Promise((r) => setImmediate(r));

t.test('fresh entries answer without a load; expiring ones answer stale while one refresh runs', async (t) => {
  const previews = new RefreshingCache<ProductCard[]>(1000);
  let loads = 0;
  let version = 'v1';
  const load = async () => {
    loads++;
    return [card(version)];
  };
  const t0 = Date.now();
  t.same(await previews.get('t1', 'lap', load, t0), [card('v1')]);
  t.same(await previews.get('t1', 'lap', load, t0 + 700), [card('v1')], 'fresh: cached');
  t.equal(loads, 1);
  version = 'v2';
  t.same(await previews.get('t1', 'lap', load, t0 + 1500), [card('v1')], 'past ttl: the old previews at once');
  await settle();
  t.equal(loads, 2, 'one background refresh');
  t.same(await previews.get('t1', 'lap', load, Date.now()), [card('v2')], 'the refreshed previews next time');
});

t.test('entries older than twice the ttl are loaded before answering; clear forgets at once', async (t) => {
  const previews = new RefreshingCache<ProductCard[]>(1000);
  let version = 'v1';
  const load = async () => [card(version)];
  const t0 = Date.now();
  await previews.get('t1', 'cam', load, t0);
  version = 'v2';
  t.same(await previews.get('t1', 'cam', load, t0 + 2500), [card('v2')], 'too old to serve');
  version = 'v3';
  previews.clear('t1');
  t.same(await previews.get('t1', 'cam', load), [card('v3')], 'after an index change: a new load');
});

t.test('expiring previews refresh two at a time, each key answered stale meanwhile', async (t) => {
  const previews = new RefreshingCache<ProductCard[]>(1000);
  const started: string[] = [];
  const release: Array<() => void> = [];
  let version = 'v1';
  const loader = (key: string) => () => {
    started.push(key);
    const v = version;
    if (v === 'v1') return Promise.resolve([card(`${key}-${v}`)]);
    return new Promise<ProductCard[]>((r) => release.push(() => r([card(`${key}-${v}`)])));
  };
  const keys = ['a', 'b', 'c', 'd'];
  const t0 = Date.now();
  for (const k of keys) await previews.get('t1', k, loader(k), t0);
  started.length = 0;
  version = 'v2';
  for (const k of keys) t.same(await previews.get('t1', k, loader(k), t0 + 1500), [card(`${k}-v1`)], `${k}: stale at once`);
  t.same(started, ['a', 'b'], 'two refreshes, not four');
  for (const k of keys) await previews.get('t1', k, loader(k), t0 + 1500);
  t.same(started, ['a', 'b'], 'no more while two run');
  release.splice(0).forEach((r) => r());
  await settle();
  t.same(await previews.get('t1', 'a', loader('a'), Date.now()), [card('a-v2')], 'a refreshed');
  await previews.get('t1', 'c', loader('c'), t0 + 1500);
  t.same(started, ['a', 'b', 'c'], 'a freed slot refreshes the next expiring key');
});

t.test('keys made together expire at different ages (80-100 % of the ttl)', async (t) => {
  const previews = new RefreshingCache<ProductCard[]>(1000);
  const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
  const t0 = Date.now();
  for (const k of keys) await previews.get('t1', k, async () => [card('v1')], t0);
  const refreshed: string[] = [];
  for (const k of keys)
    await previews.get(
      't1',
      k,
      async () => {
        refreshed.push(k);
        return [card('v2')];
      },
      t0 + 900,
    );
  await settle();
  t.ok(refreshed.length > 0 && refreshed.length < keys.length, `some, not all, expired at 90 %: ${refreshed.length} of ${keys.length}`);
  let fresh = 0;
  for (const k of keys)
    if (!refreshed.includes(k))
      await previews.get(
        't1',
        k,
        async () => {
          fresh--;
          return [card('v2')];
        },
        t0 + 790,
      );
  t.equal(fresh, 0, 'none expired before 80 %');
});

t.test('a refresh that fails at once frees its slot and keeps the old previews', async (t) => {
  const previews = new RefreshingCache<ProductCard[]>(1000);
  const t0 = Date.now();
  await previews.get('t1', 'x', async () => [card('v1')], t0);
  await previews.get('t1', 'y', async () => [card('v1')], t0);
  await previews.get('t1', 'z', async () => [card('v1')], t0);
  const broken = () => {
    throw new Error('engine down');
  };
  t.same(await previews.get('t1', 'x', broken as never, t0 + 1500), [card('v1')]);
  t.same(await previews.get('t1', 'y', broken as never, t0 + 1500), [card('v1')]);
  await settle();
  let loaded = 0;
  await previews.get(
    't1',
    'z',
    async () => {
      loaded++;
      return [card('v2')];
    },
    t0 + 1500,
  );
  await settle();
  t.equal(loaded, 1, 'both slots were freed');
});

t.test('ttl 0 keeps nothing: every get loads, concurrent ones too', async (t) => {
  const cache = new RefreshingCache<ProductCard[]>(0);
  let loads = 0;
  const load = async () => [card(`v${++loads}`)];
  t.same(await cache.get('t1', 'k', load), [card('v1')]);
  t.same(await cache.get('t1', 'k', load), [card('v2')]);
  await Promise.all([cache.get('t1', 'k', load), cache.get('t1', 'k', load)]);
  t.equal(loads, 4);
});

t.test('a write with a grace: values made before it answer while refreshed, only within the grace', async (t) => {
  const cache = new RefreshingCache<ProductCard[]>(60_000, undefined, 1000);
  let version = 'v1';
  let loads = 0;
  const load = async () => {
    loads++;
    return [card(version)];
  };
  await cache.get('t1', 'a', load);
  await cache.get('t1', 'b', load);
  await cache.get('t2', 'a', load);
  version = 'v2';
  const wrote = Date.now();
  cache.changed('t1', wrote);
  t.same(await cache.get('t1', 'a', load, wrote + 10), [card('v1')], 'within the grace: the value from before the write, at once');
  await settle();
  t.equal(loads, 4, 'and one refresh behind it');
  t.same(await cache.get('t1', 'a', load), [card('v2')], 'the refreshed value next time');
  t.same(await cache.get('t1', 'b', load, wrote + 1500), [card('v2')], 'past the grace: a stale value is loaded before answering');
  t.same(await cache.get('t2', 'a', load), [card('v1')], 'another store is untouched');
  const none = new RefreshingCache<ProductCard[]>(60_000);
  await none.get('t1', 'a', load);
  version = 'v3';
  none.changed('t1');
  t.same(await none.get('t1', 'a', load), [card('v3')], 'without a grace a write drops the values at once');
});

t.test('writes that keep coming: a value is answered for the grace after the first write it missed, not the last', async (t) => {
  const cache = new RefreshingCache<ProductCard[]>(60_000, undefined, 200);
  let version = 'v1';
  const load = async () => [card(version)];
  await cache.get('t1', 'a', load);
  version = 'v2';
  // A write every 60 ms for about 360 ms, the first one right after the value was made.
  for (let i = 0; i < 6; i++) {
    cache.changed('t1');
    await new Promise((r) => setTimeout(r, 60));
  }
  t.same(await cache.get('t1', 'a', load), [card('v2')], 'past the grace since the write it missed (the last one is recent): loaded before answering');
  version = 'v3';
  cache.changed('t1');
  t.same(await cache.get('t1', 'a', load), [card('v2')], 'the new value, stale since the write just now: answered while refreshed');
  await settle();
  t.same(await cache.get('t1', 'a', load), [card('v3')], 'then the refreshed one');
});

t.test('a value `keep` refuses is answered but not stored; an older kept value stays', async (t) => {
  const cache = new RefreshingCache<{ v: string; partial: boolean }>(1000, undefined, 0, 'results', (x) => !x.partial);
  let next = { v: 'partial-1', partial: true };
  let loads = 0;
  const load = async () => (loads++, next);
  const t0 = Date.now();
  t.same(await cache.get('t1', 'q', load, t0), { v: 'partial-1', partial: true }, 'answered');
  t.same(await cache.get('t1', 'q', load, t0), { v: 'partial-1', partial: true });
  t.equal(loads, 2, 'not stored: the next get loads again');
  next = { v: 'full-1', partial: false };
  await cache.get('t1', 'q', load, t0);
  t.same(await cache.get('t1', 'q', load, t0), { v: 'full-1', partial: false });
  t.equal(loads, 3, 'a kept value is stored');
  next = { v: 'partial-2', partial: true };
  t.same(await cache.get('t1', 'q', load, t0 + 1500), { v: 'full-1', partial: false }, 'expiring: the stored value while one refresh runs');
  await settle();
  t.equal(loads, 4);
  t.same(await cache.get('t1', 'q', load, t0 + 1500), { v: 'full-1', partial: false }, 'the refresh was not kept: the full value stays');
});
