import t from 'tap';
import { liteClient } from 'algoliasearch/lite';
import insights, { type InsightsClient } from 'search-insights';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS } from '../search/fixtures.js';

// Its typings are CommonJS-style (the default lands on .default under NodeNext); at run time the ESM default is the client.
const aa = ((insights as unknown as { default?: InsightsClient }).default ?? insights) as unknown as InsightsClient;

// search-insights, unmodified, pointed at this service: its events land in the events table with the search id.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, PRODUCTS);
const ORIGIN = 'https://shop.example';
const pk: string = (await h.api.call('POST', '/v1/keys', { key, body: { name: 'storefront', kind: 'public', allowed_origins: [ORIGIN] } })).body.key;
const events = (where: Record<string, unknown> = {}) =>
  h.api.deps
    .db('events')
    .where({ tenant_id: tenantId, ...where })
    .orderBy(['type', 'product_id']);

// Node's search-insights sends no Origin header, so it uses a secret key here (public keys need an allowed origin: see below and the browser test).
const client = liteClient(tenantId, key, { hosts: [{ url: `${new URL(h.api.url).host}/algolia`, protocol: 'http', accept: 'readWrite' }] });
const { results } = await client.search({ requests: [{ indexName: 'products', query: 'laptop', clickAnalytics: true, userToken: 'user-1' }] });
const queryID = (results[0] as { queryID: string }).queryID;
aa('init', { appId: tenantId, apiKey: key, host: `${h.api.url}/algolia`, userToken: 'user-1' });

t.test('click, add-to-cart, purchase and view events become event rows with the search id', async (t) => {
  t.match(queryID, /^srch_/);
  t.equal(
    await aa('clickedObjectIDsAfterSearch', { eventName: 'Product Clicked', index: 'products', queryID, objectIDs: ['lap1', 'lap2'], positions: [1, 2] }),
    true,
    'sent (200)',
  );
  t.equal(
    await aa('addedToCartObjectIDsAfterSearch', {
      eventName: 'Added To Cart',
      index: 'products',
      queryID,
      objectIDs: ['lap1'],
      // Algolia's price is the final unit price, discounts included: the discount is not taken off again.
      objectData: [{ price: 5200, quantity: 2, discount: 300 }],
      currency: 'SAR',
    }),
    true,
  );
  t.equal(
    await aa('purchasedObjectIDsAfterSearch', { eventName: 'Purchased', index: 'products', queryID, objectIDs: ['lap1', 'ph1'], value: 8199, currency: 'SAR' }),
    true,
  );
  t.equal(await aa('viewedObjectIDs', { eventName: 'Product Viewed', index: 'products', objectIDs: ['ph1'] }), true);
  t.equal(await aa('clickedFilters', { eventName: 'Filter Clicked', index: 'products', filters: ['brand:Apple'] }), true, 'filter events are accepted');
  const rows = await eventually(async () => {
    const r = await events();
    return r.length >= 7 ? r : null;
  }, 5000);
  const shape = rows.map((r) => [
    r.type,
    r.product_id,
    r.search_id === queryID ? 'Q' : r.search_id,
    r.position,
    r.quantity,
    r.value === null ? null : Number(r.value),
    r.session,
  ]);
  t.same(shape, [
    ['add_to_cart', 'lap1', 'Q', null, 2, 10400, 'user-1'],
    ['purchase', 'lap1', 'Q', null, null, null, 'user-1'],
    ['purchase', 'ph1', 'Q', null, null, null, 'user-1'],
    ['purchase', null, 'Q', null, null, 8199, 'user-1'],
    ['search_click', 'lap1', 'Q', 1, null, null, 'user-1'],
    ['search_click', 'lap2', 'Q', 2, null, null, 'user-1'],
    ['view', 'ph1', null, null, null, null, 'user-1'],
  ]);
  const searched = await eventually(async () => h.api.deps.db('search_log').where({ id: queryID }).first(), 10_000);
  t.equal(searched.session, 'user-1', 'the search is logged under the same id and session, so mining joins the click to it');
});

t.test('public keys: the allowed origin, and text/plain bodies (sendBeacon)', async (t) => {
  const body = JSON.stringify({
    events: [{ eventType: 'click', eventName: 'Product Clicked', index: 'products', userToken: 'user-2', queryID, objectIDs: ['h1'], positions: [3] }],
  });
  const send = (headers: Record<string, string>) =>
    h.api.call('POST', `/algolia/1/events?X-Algolia-Application-Id=${tenantId}&X-Algolia-API-Key=${pk}&X-Algolia-Agent=insights-js`, {
      rawBody: body,
      headers,
    });
  const noOrigin = await send({ 'content-type': 'text/plain;charset=UTF-8' });
  t.equal(noOrigin.status, 403);
  t.equal(noOrigin.body.error.code, 'origin_missing');
  t.type(noOrigin.body.message, 'string', 'Algolia-shaped error');
  const ok = await send({ 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN });
  t.equal(ok.status, 200);
  t.same(ok.body, { status: 200, message: 'OK' });
  const row = await eventually(async () => (await events({ session: 'user-2' }))[0], 10_000);
  t.same([row.type, row.product_id, row.position, row.search_id], ['search_click', 'h1', 3, queryID]);
  const wrongApp = await h.api.call('POST', `/algolia/1/events?X-Algolia-Application-Id=ten_x&X-Algolia-API-Key=${pk}`, {
    rawBody: body,
    headers: { origin: ORIGIN, 'content-type': 'text/plain' },
  });
  t.equal(wrongApp.status, 403);
  t.equal(wrongApp.body.error.code, 'application_mismatch');
});

t.test('invalid events: 400 for the whole call, nothing stored; long user tokens are hashed into a session', async (t) => {
  const post = (events: unknown[]) => h.api.call('POST', '/algolia/1/events', { key, body: { events }, headers: { 'x-algolia-application-id': tenantId } });
  const base = { eventType: 'click', eventName: 'Product Clicked', index: 'products', userToken: 'user-3', objectIDs: ['h2'] };
  const bad = await post([base, { ...base, queryID, objectIDs: ['h2'] }]);
  t.equal(bad.status, 400);
  t.equal(bad.body.error.details[0].field, 'events.1.positions');
  t.match(bad.body.message, /positions/);
  const future = await post([{ ...base, timestamp: Date.now() + 3600_000 }]);
  t.equal(future.body.error.details[0].field, 'events.0.timestamp');
  const long = 'u'.repeat(100);
  t.equal((await post([{ ...base, userToken: long }])).status, 200);
  const row = await eventually(async () => (await h.api.deps.db('events').where({ tenant_id: tenantId, product_id: 'h2' }))[0], 10_000);
  t.match(row.session, /^ut_[0-9a-f]{61}$/);
  t.equal(row.type, 'view', 'a click without a queryID is a product view');
  t.equal((await events({ session: 'user-3' })).length, 0, 'the rejected call stored nothing');
});
