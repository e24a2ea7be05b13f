import t from 'tap';
import { setup } from '../helpers/harness.js';

// A batch whose delete list named an id twice answered the second with "the same id is upserted in
// this batch", though the batch upserted nothing: the item error named the wrong conflict.
const h = await setup();
t.teardown(() => h.close());
const { key } = await h.tenant();
const post = (body: unknown) => h.api.call('POST', '/v1/products/batch', { key, body });
await post({ upsert: ['d1', 'u1'].map((id) => ({ id, name: { en: id }, price: 1, currency: 'USD' })) });

t.test('an id deleted twice: the second is a duplicate of the first delete', async (t) => {
  const res = await post({ delete: ['d1', 'd1'] });
  t.equal(res.status, 200);
  t.equal(res.body.deleted, 1, 'the product is deleted once');
  t.equal(res.body.errors.length, 1);
  t.match(res.body.errors[0], { id: 'd1', index: 1, code: 'duplicate_id' });
  t.notMatch(res.body.errors[0].message, /upsert/, 'nothing was upserted');
  t.match(res.body.errors[0].message, /delete/);
});

t.test('an id upserted and deleted: the delete is the duplicate of the upsert', async (t) => {
  const res = await post({ upsert: [{ id: 'u1', name: { en: 'again' }, price: 2, currency: 'USD' }], delete: ['u1'] });
  t.equal(res.status, 200);
  t.match(res.body.errors, [{ id: 'u1', index: 1, code: 'duplicate_id', message: /upserted/ }]);
});
