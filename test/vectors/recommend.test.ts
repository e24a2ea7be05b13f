import t from 'tap';
import { setupWithWorkers, eventually, noticesDelivered } from '../helpers/workers.js';
import { familyProducts } from './catalog.js';
import { learnEvents } from '../../pipelines/vectors/learn-events.stage.js';

const { h, workers } = await setupWithWorkers();
const deps = h.api.deps;
const a = await h.tenant('recommend a');
const b = await h.tenant('recommend b');
const products = familyProducts();
for (const [key, id, items] of [
  [a.key, a.id, products],
  [b.key, b.id, familyProducts('b-').slice(0, 12)],
] as const) {
  const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: items } });
  if (res.status !== 200) throw new Error('load failed');
  await eventually(async () => (await deps.vectors.count(id)) === items.length, 30_000, 100);
}
const pub = (await h.api.call('POST', '/v1/keys', { key: a.key, body: { name: 'shop', kind: 'public', allowed_origins: ['https://shop.example'] } })).body.key;
const origin = { Origin: 'https://shop.example' };
const rec = (qs: string, key = pub) => h.api.call('GET', `/v1/recommend?${qs}`, { key, headers: origin });
const ev = (events: unknown[], key = pub) => h.api.call('POST', '/v1/events', { key, headers: origin, body: { events } });
/** Runs the stage as the schedule's per-store job would, through a real worker. */
async function learn(tenantId: string) {
  const job = await deps.queues.enqueue(learnEvents, { tenantId, bucket: Date.now() });
  const q = workers.deps.queues.get('embeddings');
  const done = await eventually(
    async () => {
      const j = await q.getJob(job);
      return j?.finishedOn ? j : null;
    },
    20_000,
    50,
  );
  // Its signals notice reaches the API over Redis; from then on recommendations wait for the new signals.
  await noticesDelivered(deps);
  return done.returnvalue as { similar: number; similarReused: boolean };
}

t.test('a public key may call it; it is not billed as a search', async (t) => {
  const res = await rec('type=trending&limit=5');
  t.equal(res.status, 200);
  t.equal(res.headers.get('x-service-usage'), null, 'no search billed');
  t.equal(res.body.ids.length, 5);
  t.equal(res.body.source, 'popularity', 'no events yet: the catalog popularity');
  t.equal((await rec('type=similar')).status, 400, 'similar needs product_id');
  t.equal((await rec('type=nope')).status, 400);
});

t.test('similar: vectors, then attributes when a product has no vector', async (t) => {
  const v = await rec('type=similar&product_id=laptops-0-0&limit=4');
  t.equal(v.body.source, 'vectors');
  t.ok(
    v.body.ids.every((id: string) => id.startsWith('laptops-')),
    `${v.body.ids}`,
  );
  // Without the vector (removed from the store only), the same category answers.
  await deps.vectors.remove(a.id, ['coffee-0-0']);
  await deps.notices.publish('vectors', a.id);
  // The old in-memory copy answers until the reload is in.
  const attr = await eventually(async () => {
    const r = await rec('type=similar&product_id=coffee-0-0&limit=4');
    return r.body.source === 'attributes' ? r : null;
  });
  t.ok(
    attr.body.ids.every((id: string) => id.startsWith('coffee-')),
    `${attr.body.ids}`,
  );
  t.notOk(attr.body.ids.includes('coffee-0-0'));
  const unknown = await rec('type=similar&product_id=nope&limit=3');
  t.equal(unknown.body.source, 'popularity', 'unknown product: never empty');
  t.equal(unknown.body.ids.length, 3);
});

t.test('also_viewed, trending and recently_viewed from events', async (t) => {
  const now = Date.now();
  const at = (s: number) => new Date(now - s * 1000).toISOString();
  const events: unknown[] = [];
  // Ten sessions view phones-0-0 with cables-0-0; the bestseller phones-3-2 is viewed in every session of the store.
  for (let i = 0; i < 10; i++) {
    events.push({ type: 'view', session: `s${i}`, product_id: 'phones-0-0', timestamp: at(300) });
    events.push({ type: 'view', session: `s${i}`, product_id: 'cables-0-0', timestamp: at(290) });
    events.push({ type: 'view', session: `s${i}`, product_id: 'phones-3-2', timestamp: at(280) });
  }
  for (let i = 10; i < 40; i++) {
    events.push({ type: 'view', session: `s${i}`, product_id: 'phones-3-2', timestamp: at(250) });
    events.push({ type: 'view', session: `s${i}`, product_id: `coffee-${i % 4}-1`, timestamp: at(240) });
  }
  events.push({ type: 'add_to_cart', session: 's1', product_id: 'cables-1-1', timestamp: at(100) });
  t.equal((await ev(events)).status, 202);
  await deps.events.flush();
  await learn(a.id);
  const also = await rec('type=also_viewed&product_id=phones-0-0&limit=3');
  t.equal(also.body.source, 'co_views');
  t.equal(also.body.ids[0], 'cables-0-0', 'co-viewed product first; the bestseller normalized below it');
  const trending = await rec('type=trending&limit=3');
  t.equal(trending.body.source, 'popularity');
  t.equal(trending.body.ids[0], 'phones-3-2');
  const perCat = await rec('type=trending&category_id=cables&limit=3');
  t.ok(perCat.body.ids.length > 0 && perCat.body.ids.every((id: string) => id.startsWith('cables-')), `${perCat.body.ids}`);
  t.ok(['cables-0-0', 'cables-1-1'].includes(perCat.body.ids[0]));
  const recent = await rec('type=recently_viewed&session=s1&limit=5');
  t.equal(recent.body.source, 'session');
  t.same(recent.body.ids.slice(0, 4), ['cables-1-1', 'phones-3-2', 'cables-0-0', 'phones-0-0'], 'newest first');
  const noViews = await rec('type=also_viewed&product_id=laptops-1-1&limit=3');
  t.equal(noViews.body.source, 'vectors', 'no co-views: similar products');
  const fresh = await rec('type=recently_viewed&session=new-shopper&limit=3');
  t.equal(fresh.body.source, 'popularity', 'no views in the session: trending');
  t.equal(fresh.body.ids.length, 3);
});

t.test('similar lists computed by learn-events answer without a scan', async (t) => {
  const lists: Array<{ product_id: string; ids: string[] }> = await deps.db('similar_lists').where({ tenant_id: a.id }).select('product_id', 'ids');
  t.ok(lists.length >= (await deps.vectors.count(a.id)) && lists.length > 0, `${lists.length} lists: one per product with a vector`);
  const laptop = lists.find((l) => l.product_id === 'laptops-0-0')!;
  const wv = workers.deps.vectors;
  const v = (await wv.vectorsOf(a.id, ['laptops-0-0'])).get('laptops-0-0')!;
  t.same(
    laptop.ids,
    (await wv.nearest(a.id, v, 24, { exclude: ['laptops-0-0'] })).map((h) => h.id),
    'the exact 24 nearest',
  );
  deps.recommender.clear(a.id);
  const nearest = deps.vectors.nearest.bind(deps.vectors);
  let scans = 0;
  deps.vectors.nearest = async (...args) => (scans++, nearest(...args));
  const res = await rec('type=similar&product_id=laptops-0-0&limit=5');
  deps.vectors.nearest = nearest;
  t.equal(res.body.source, 'vectors');
  t.same(res.body.ids, laptop.ids.slice(0, 5), 'answered from the list');
  t.equal(scans, 0, 'no scan of the vectors');
  const other = await deps.db('similar_lists').where({ tenant_id: b.id }).count({ n: '*' });
  t.equal(Number(other[0].n), 0, 'lists are per store: the other store (never learned) has none');
});

t.test('similar lists are kept while the vectors are unchanged, recomputed when they change', async (t) => {
  const listed = Number((await deps.db('similar_lists').where({ tenant_id: a.id }).count({ n: '*' }))[0].n);
  const again = await learn(a.id);
  t.same(again, { ...again, similar: listed, similarReused: true }, 'same vectors: no scan, the lists kept');
  const before = await deps.db('similar_lists').where({ tenant_id: a.id, product_id: 'phones-0-1' }).first('ids');
  // A new name embeds a new vector: the next run computes the lists again.
  const item = products.find((p) => p.id === 'phones-0-1')!;
  const version = async () => (await deps.db('product_vectors').where({ tenant_id: a.id, product_id: 'phones-0-1' }).first('source_version'))?.source_version;
  const old = await version();
  const res = await h.api.call('POST', '/v1/products/batch', {
    key: a.key,
    body: { upsert: [{ ...item, name: { en: 'Espresso machine with milk frother' } }] },
  });
  t.equal(res.status, 200);
  await eventually(async () => (await version()) !== old, 20_000, 50);
  const changed = await eventually(async () => {
    const r = await learn(a.id);
    return r.similarReused ? null : r;
  });
  t.equal(changed.similar, listed, 'recomputed, one list per product');
  const after = await deps.db('similar_lists').where({ tenant_id: a.id, product_id: 'phones-0-1' }).first('ids');
  t.notSame(after.ids, before.ids, `its own list follows its new vector: ${after.ids.slice(0, 5)}`);
  t.equal((await learn(a.id)).similarReused, true, 'and kept again after that');
});

t.test('recently_viewed reads no database', async (t) => {
  await rec('type=recently_viewed&session=s2&limit=5');
  let queries = 0;
  const seen: string[] = [];
  const count = (q: { sql: string }) => void (queries++, seen.push(q.sql));
  deps.db.on('query', count);
  const res = await rec('type=recently_viewed&session=s2&limit=5');
  deps.db.off('query', count);
  t.equal(res.body.source, 'session');
  t.equal(queries, 0, seen.join(' | '));
});

t.test('also_viewed, similar and trending read no database once the store is held', async (t) => {
  for (const q of ['type=also_viewed&product_id=phones-0-0&limit=5', 'type=trending&limit=5', 'type=similar&product_id=laptops-0-0&limit=5']) await rec(q);
  let queries = 0;
  const seen: string[] = [];
  const count = (q: { sql: string }) => void (queries++, seen.push(q.sql));
  deps.db.on('query', count);
  // Another limit: not an answer held, computed again from the held co-views, trends, vectors and cards.
  const also = await rec('type=also_viewed&product_id=phones-0-0&limit=4');
  const trending = await rec('type=trending&limit=4');
  const similar = await rec('type=similar&product_id=laptops-0-0&limit=4');
  deps.db.off('query', count);
  t.equal(also.body.source, 'co_views');
  t.equal(trending.body.source, 'popularity');
  t.equal(similar.body.source, 'vectors');
  t.equal(also.body.ids.length + trending.body.ids.length + similar.body.ids.length, 12);
  t.equal(queries, 0, seen.join(' | '));
});

t.test('tenant isolation and deletes', async (t) => {
  const other = await rec('type=also_viewed&product_id=phones-0-0&limit=5', b.key);
  t.ok(
    other.body.ids.every((id: string) => id.startsWith('b-')),
    `${other.body.ids}`,
  );
  const otherRecent = await rec('type=recently_viewed&session=s1&limit=5', b.key);
  t.not(otherRecent.body.source, 'session', "another store's sessions are not shared");
  await h.api.call('DELETE', '/v1/products/cables-0-0', { key: a.key });
  const also = await rec('type=also_viewed&product_id=phones-0-0&limit=3');
  t.notOk(also.body.ids.includes('cables-0-0'), 'a deleted product is never recommended');
  const trending = await rec('type=trending&category_id=phones&limit=50');
  t.ok(trending.body.ids.every((id: string) => id.startsWith('phones-')));
});
