import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant('recently viewed');
const product = (id: string, popularity: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: { en: `Desk lamp ${id}` },
  brand: 'Lumo',
  categories: [{ id: 'lamps', path: [{ en: 'Lamps' }] }],
  price: 10,
  currency: 'SAR',
  popularity,
  ...extra,
});
// p3 is the catalog's best seller.
await loadProducts(h, key, tenantId, [product('p1', 1), product('p2', 2), product('p3', 9), product('p4', 1), product('p11', 1)]);

const rec = async (qs: string) => {
  const res = await h.api.call('GET', `/v1/recommend?type=recently_viewed&${qs}`, { key });
  if (res.status !== 200) throw new Error(`recommend ${qs}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { ids: string[]; source: string };
};
/** The session's views, oldest first (the list is newest first). */
async function view(session: string, ids: string[]) {
  const now = Date.now();
  const events = ids.map((id, i) => ({ type: 'view', session, product_id: id, timestamp: new Date(now - (ids.length - i) * 1000).toISOString() }));
  const res = await h.api.call('POST', '/v1/events', { key, body: { events } });
  if (res.status !== 202) throw new Error(`events: ${res.status}`);
}

await view('rv-x', ['p11', 'p2']);
await view('sess-1', ['p1', 'p2', 'p3']);
await view('mixed', ['p1', 'p4', 'p2', 'p11', 'p3']);
await view('probe', ['p4']);
if ((await rec('session=rv-x&limit=1')).ids[0] !== 'p2') throw new Error('p2 is the newest view while it is visible');
// p2 hidden, p4 deleted; the index notice drops the cards held.
const hide = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: [product('p2', 2, { visible: false })] } });
const del = await h.api.call('DELETE', '/v1/products/p4', { key });
if (hide.status !== 200 || del.status !== 200) throw new Error(`hide ${hide.status}, delete ${del.status}`);
await eventually(async () => (await h.api.deps.repos.products.countUnindexed(tenantId)) === 0, 20_000);
await eventually(async () => !(await rec('session=rv-x&limit=1')).ids.includes('p2') && (await rec('session=probe&limit=1')).source === 'popularity', 10_000);

t.test('hidden or deleted products among the newest views: older views fill the list', async (t) => {
  const one = await rec('session=rv-x&limit=1');
  t.same(one, { ...one, source: 'session', ids: ['p11'] }, 'the view before the hidden one, not popularity');
  const sess = await rec('session=sess-1&limit=2');
  t.same(sess, { ...sess, source: 'session', ids: ['p3', 'p1'] }, 'the hidden one skipped, the next view taken');
  const wide = await rec('session=sess-1&limit=5');
  t.same(wide, { ...wide, source: 'session', ids: ['p3', 'p1'] }, 'the list alone when it has any');
  const mixed = await rec('session=mixed&limit=3');
  t.same(mixed, { ...mixed, source: 'session', ids: ['p3', 'p11', 'p1'] }, 'a hidden and a deleted product passed over');
  const two = await rec('session=mixed&limit=2');
  t.same(two.ids, ['p3', 'p11'], 'all visible in the newest two: just those');
});

t.test('a session whose views are all hidden or deleted falls back to popularity', async (t) => {
  await view('all-gone', ['p2']);
  const res = await rec('session=all-gone&limit=2');
  t.equal(res.source, 'popularity');
  t.equal(res.ids.length, 2, 'never empty while the catalog has visible products');
  t.notOk(res.ids.includes('p2'), 'never the hidden product');
});

t.test('a resent or late event does not push an older view above newer ones', async (t) => {
  const at = (s: number) => new Date(Date.now() - s * 1000).toISOString();
  const events = [
    { type: 'view', session: 'resend', product_id: 'p1', timestamp: at(30), event_id: 'v-1' },
    { type: 'view', session: 'resend', product_id: 'p3', timestamp: at(20), event_id: 'v-2' },
  ];
  const first = await h.api.call('POST', '/v1/events', { key, body: { events } });
  const later = await h.api.call('POST', '/v1/events', { key, body: { events: [{ type: 'view', session: 'resend', product_id: 'p11', timestamp: at(10) }] } });
  // The first call's answer was lost: the client sends it again, as the README says is safe with event ids.
  const again = await h.api.call('POST', '/v1/events', { key, body: { events } });
  t.same([first.status, later.status, again.status], [202, 202, 202]);
  t.same((await rec('session=resend&limit=3')).ids, ['p11', 'p3', 'p1'], 'newest view first, by when it happened');
});
