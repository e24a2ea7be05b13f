import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { learnEvents } from '../../pipelines/vectors/learn-events.stage.js';

// Click learning counts a shopper once: many clicks of one session on one product for one query
// weigh what one click weighs, through POST /v1/events and the Insights endpoint alike.
const { h, workers } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const deps = h.api.deps;
const Q = 'lamp';
const PAGE = 8;
const SHOPPERS = 12;
const HOUR = 3600_000;
const lamps = Array.from({ length: PAGE }, (_, i) => ({
  id: `lamp-${i}`,
  name: { en: `Desk lamp ${['oak', 'steel', 'brass', 'glass', 'linen', 'clay', 'bamboo', 'marble'][i]}` },
  price: 20 + i,
  currency: 'USD',
  popularity: PAGE - i,
}));

type Store = { id: string; key: string };
async function store(name: string): Promise<Store> {
  const s = await h.tenant(name);
  await loadProducts(h, s.key, s.id, lamps);
  return s;
}

/** One shopper's search of Q (logged with its page and session); the search id and the ids shown. */
const searchV1 = async (s: Store, session?: string, q = Q) => {
  const res = await h.api.call('POST', '/v1/search', { key: s.key, body: { q, per_page: PAGE, debug: true, ...(session ? { session } : {}) } });
  if (res.status !== 200) throw new Error(`search: ${res.status}`);
  return res.body as { search_id: string; ids: string[]; debug: { steps: Array<Record<string, unknown>> } };
};
const searchAlgolia = async (s: Store, userToken: string) => {
  const res = await h.api.call('POST', '/algolia/1/indexes/*/queries', {
    key: s.key,
    headers: { 'x-algolia-application-id': s.id },
    body: { requests: [{ indexName: 'products', query: Q, hitsPerPage: PAGE, clickAnalytics: true, userToken }] },
  });
  if (res.status !== 200) throw new Error(`algolia search: ${res.status}`);
  const r = res.body.results[0] as { queryID: string; hits: Array<{ objectID: string }> };
  return { search_id: r.queryID, ids: r.hits.map((x) => x.objectID) };
};

/** A click of `product` (1-based `position`) after `searchId` by `session`, as each endpoint takes it. */
interface Click {
  session: string;
  searchId: string;
  product: string;
  position: number;
  at?: number;
  eventId?: string;
}
const sendV1 = async (s: Store, clicks: Click[]) => {
  const events = clicks.map((c) => ({
    type: 'search_click',
    session: c.session,
    search_id: c.searchId,
    product_id: c.product,
    position: c.position,
    ...(c.at ? { timestamp: new Date(c.at).toISOString() } : {}),
    ...(c.eventId ? { event_id: c.eventId } : {}),
  }));
  const res = await h.api.call('POST', '/v1/events', { key: s.key, body: { events } });
  if (res.status !== 202 || res.body.accepted !== clicks.length) throw new Error(`events: ${res.status} ${JSON.stringify(res.body)}`);
};
const sendInsights = async (s: Store, clicks: Click[]) => {
  const events = clicks.map((c) => ({
    eventType: 'click',
    eventName: 'Product Clicked',
    index: 'products',
    userToken: c.session,
    queryID: c.searchId,
    objectIDs: [c.product],
    positions: [c.position],
    ...(c.at ? { timestamp: c.at } : {}),
  }));
  const res = await h.api.call('POST', '/algolia/1/events', { key: s.key, headers: { 'x-algolia-application-id': s.id }, body: { events } });
  if (res.status !== 200 || res.body.message !== 'OK') throw new Error(`insights: ${res.status} ${JSON.stringify(res.body)}`);
};

/** Runs learn-events for the store through a real worker, as the schedule's per-store job does. */
async function learn(s: Store) {
  await deps.events.flush();
  await deps.searchLog.flush();
  const job = await deps.queues.enqueue(learnEvents, { tenantId: s.id, bucket: Date.now() });
  const queue = workers.deps.queues.get('embeddings');
  await eventually(async () => (await queue.getJob(job))?.finishedOn, 60_000, 50);
  // The stage's notice reaches the API through Redis; this runs its handlers here at once, so the next search reads the new statistics.
  await deps.notices.publish('signals', s.id);
}
const statOf = async (s: Store, product: string) => (await deps.repos.signals.clickStats(s.id)).find((x) => x.query === Q && x.product_id === product) ?? null;
/** The store's first page for Q once the API holds its click statistics (rerank saw them). */
const pageAfterLearning = (s: Store) =>
  eventually(async () => {
    const r = await searchV1(s);
    return Number(r.debug.steps.find((x) => x.step === 'rerank')?.clicked) > 0 ? r.ids : null;
  }, 20_000);

for (const [endpoint, search, send] of [
  ['POST /v1/events', searchV1, sendV1],
  ['Insights /1/events', searchAlgolia, sendInsights],
] as const) {
  t.test(`${endpoint}: one session's repeated clicks count as one click; distinct sessions each count`, async (t) => {
    const [one, repeats, crowd] = [await store('one click'), await store('repeated clicks'), await store('many shoppers')];
    const searches = new Map<Store, Array<{ search_id: string; ids: string[] }>>();
    for (const s of [one, repeats, crowd]) {
      const list = [];
      for (let i = 0; i < SHOPPERS; i++) list.push(await search(s, `shopper-${i}`));
      searches.set(s, list);
    }
    const first = searches.get(one)![0];
    const last = first.ids[PAGE - 1];
    t.equal(first.ids.length, PAGE);
    const click = (s: Store, i: number, extra: Partial<Click> = {}): Click => ({
      session: `shopper-${i}`,
      searchId: searches.get(s)![i].search_id,
      product: last,
      position: PAGE,
      ...extra,
    });
    // One shopper clicks the last lamp once.
    await send(one, [click(one, 0)]);
    // The same shopper clicks it 40 times: a burst on one search, clicks spread over the last
    // 20 hours, ids of its own on each (for the events endpoint), and three more searches of
    // the query, each clicked again.
    const burst = Array.from({ length: 10 }, () => click(repeats, 0));
    const spread = Array.from({ length: 15 }, (_, k) => click(repeats, 0, { at: Date.now() - (20 - k) * HOUR, eventId: `spread-${k}` }));
    await send(repeats, [...burst, ...spread]);
    for (let k = 0; k < 3; k++) {
      const again = await search(repeats, 'shopper-0');
      await send(
        repeats,
        Array.from({ length: 5 }, () => click(repeats, 0, { searchId: again.search_id })),
      );
    }
    // Ten shoppers click it once each.
    await send(
      crowd,
      Array.from({ length: 10 }, (_, i) => click(crowd, i)),
    );
    for (const s of [one, repeats, crowd]) await learn(s);

    const stored = await deps.db('events').where({ tenant_id: repeats.id, session: 'shopper-0', type: 'search_click' }).count({ n: '*' });
    t.equal(Number(stored[0].n), 40, 'every repeated click is stored');
    const [once, repeated, many] = [await statOf(one, last), await statOf(repeats, last), await statOf(crowd, last)];
    t.equal(Number(once?.clicks), 1);
    t.equal(Number(repeated?.clicks), 1, '40 clicks of one session count once');
    t.equal(repeated?.attractiveness, once?.attractiveness, `the learned attractiveness of one click: ${JSON.stringify(repeated)}`);
    t.equal(Number(many?.clicks), 10, 'ten sessions count ten times');
    t.ok(Number(many?.attractiveness) > 5 * Number(once?.attractiveness), `${JSON.stringify(many)} vs ${JSON.stringify(once)}`);

    const [pageOne, pageRepeats] = [await pageAfterLearning(one), await pageAfterLearning(repeats)];
    t.same(pageRepeats, pageOne, `the repeated clicks move the lamp no further than one click: ${pageOne}`);
    t.not(pageRepeats[0], last, 'one session does not put it first');
    const pageCrowd = await eventually(async () => {
      const ids = await pageAfterLearning(crowd);
      return ids[0] === last ? ids : null;
    }, 20_000);
    t.equal(pageCrowd[0], last, 'ten shoppers put it first');

    // Past the repeat window the shopper counts again: clicks 30 and 29 hours ago are one visit,
    // the click made now (above) another.
    await send(one, [click(one, 0, { at: Date.now() - 30 * HOUR }), click(one, 0, { at: Date.now() - 29 * HOUR })]);
    await learn(one);
    t.equal(Number((await statOf(one, last))?.clicks), 2, 'a shopper coming back after 24 hours counts again, once');
  });
}

t.test("one session's repeated searches count once: they neither qualify a query nor pass over its first product", async (t) => {
  const s = await store('repeated searches');
  // Five shoppers search the lamps once; one session searches them twenty times and never clicks.
  for (let i = 0; i < 5; i++) await searchV1(s, `shopper-${i}`);
  for (let k = 0; k < 20; k++) await searchV1(s, 'again');
  const before = (await searchV1(s, 'again')).ids;
  // Another query that ten shoppers search and one clicks: its learned click shows when the API holds the new statistics.
  const other = [];
  for (let i = 0; i < 10; i++) other.push(await searchV1(s, `shopper-${i}`, 'desk lamp'));
  await sendV1(s, [{ session: 'shopper-0', searchId: other[0].search_id, product: other[0].ids[2], position: 3 }]);
  await learn(s);
  const stats = await deps.repos.signals.clickStats(s.id);
  t.same(
    stats.filter((x) => x.query === Q),
    [],
    'six shoppers: fewer than 10 searches, no statistics, nothing passed over',
  );
  await eventually(async () => Number((await searchV1(s, undefined, 'desk lamp')).debug.steps.find((x) => x.step === 'rerank')?.clicked) > 0, 20_000);
  const after = await searchV1(s);
  t.same(after.ids, before, 'the page carries no learning');
  t.match(
    after.debug.steps.find((x) => x.step === 'rerank'),
    { clicked: 0, passed: 0 },
  );
});
