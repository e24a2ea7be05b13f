import t from 'tap';
import { setup } from '../helpers/harness.js';

// Insights events share the events buffer with every store's /v1/events calls: one event whose
// field the events table cannot hold must be refused at the door, not fail the batch it lands in.
const h = await setup();
t.teardown(() => h.close());
const deps = h.api.deps;
const a = await h.tenant('insights store');
const b = await h.tenant('other store');
// Flushes only when the test says so: both calls land in one batch.
await deps.events.stop();

t.test('an Insights quantity past the events limit is a 400, and other events are stored', async (t) => {
  const conversion = {
    eventType: 'conversion',
    eventSubtype: 'addToCart',
    eventName: 'Added To Cart',
    index: 'products',
    userToken: 'user-q',
    objectIDs: ['p1'],
    objectData: [{ price: 1, quantity: 3_000_000_000 }],
    currency: 'USD',
  };
  const res = await h.api.call('POST', '/algolia/1/events', { key: a.key, body: { events: [conversion] }, headers: { 'x-algolia-application-id': a.id } });
  t.equal(res.status, 400);
  t.match(res.body.error?.details, [{ field: 'events.0.objectData.0.quantity', code: 'too_large' }]);

  const other = await h.api.call('POST', '/v1/events', { key: b.key, body: { events: [{ type: 'view', session: 'sess-b', product_id: 'b1' }] } });
  t.equal(other.status, 202);
  // A failed batch is tried once more, then dropped: two flushes settle it either way.
  await deps.events.flush();
  await deps.events.flush();
  const stored = await deps.repos.events.list(b.id);
  t.same(
    stored.map((e) => [e.type, e.product_id]),
    [['view', 'b1']],
    "the other store's event is stored",
  );
  t.same(await deps.repos.events.list(a.id), [], 'nothing of the refused call');
});
