import t from 'tap';
import { setup } from '../helpers/harness.js';
import { charLength } from '../../shared/text/valid-text.js';

// The spec's limits are in characters. An emoji is one character but two UTF-16 units, so a check
// written `s.length > max` refused a text at its limit: a product whose id is 128 emoji was stored
// by the batch upsert and could then never be deleted (the delete's id check counted units). Every
// limit counts Unicode code points: at the limit passes, one over fails with the field named.
const h = await setup();
t.teardown(() => h.close());
const admin = await h.tenant();
const EMOJI = '\u{1F600}';
const ARABIC = 'بَ'; // a letter and its fatha: two characters, two units
const emoji = (n: number) => EMOJI.repeat(n);

t.test('charLength counts code points', async (t) => {
  t.equal(charLength(emoji(3)), 3);
  t.equal(emoji(3).length, 6);
  t.equal(charLength(`a${EMOJI}ب`), 3);
  t.equal(charLength(ARABIC.repeat(5)), 10);
  t.equal(charLength(''), 0);
});

t.test('a key name: 100 characters of emoji or Arabic pass, 101 fail (POST and PATCH /v1/keys)', async (t) => {
  for (const name of [emoji(100), ARABIC.repeat(50), `${emoji(99)}x`]) {
    const res = await h.api.call('POST', '/v1/keys', { key: admin.key, body: { name, kind: 'secret' } });
    t.equal(res.status, 201, `${charLength(name)} characters, ${name.length} units`);
    t.equal(res.body.name, name, 'stored whole');
  }
  const created = await h.api.call('POST', '/v1/keys', { key: admin.key, body: { name: 'short', kind: 'secret' } });
  for (const name of [emoji(101), `${ARABIC.repeat(50)}x`]) {
    const res = await h.api.call('POST', '/v1/keys', { key: admin.key, body: { name, kind: 'secret' } });
    t.equal(res.status, 400);
    t.match(res.body.error, { code: 'validation_failed', details: [{ in: 'body', field: 'name', code: 'too_long' }] });
    const patched = await h.api.call('PATCH', `/v1/keys/${created.body.id}`, { key: admin.key, body: { name } });
    t.equal(patched.status, 400);
    t.match(patched.body.error.details, [{ in: 'body', field: 'name', code: 'too_long' }]);
  }
  const patched = await h.api.call('PATCH', `/v1/keys/${created.body.id}`, { key: admin.key, body: { name: emoji(100) } });
  t.equal(patched.status, 200);
  t.equal(patched.body.name, emoji(100));
});

t.test('suggest q: 128 emoji pass, 129 fail', async (t) => {
  const ok = await h.api.call('GET', `/v1/suggest?q=${encodeURIComponent(emoji(128))}`, { key: admin.key });
  t.equal(ok.status, 200);
  const over = await h.api.call('GET', `/v1/suggest?q=${encodeURIComponent(emoji(129))}`, { key: admin.key });
  t.equal(over.status, 400);
  t.match(over.body.error, { code: 'validation_failed', details: [{ in: 'query', field: 'q', code: 'too_long' }] });
});

t.test('a product id of 128 emoji is upserted and deleted; 129 is refused by both', async (t) => {
  const product = (id: string) => ({ id, name: { en: 'smile' }, price: 1, currency: 'USD', brand: emoji(200) });
  const upsert = await h.api.call('POST', '/v1/products/batch', { key: admin.key, body: { upsert: [product(emoji(128)), product(emoji(129))] } });
  t.equal(upsert.status, 200);
  t.equal(upsert.body.upserted, 1, 'the id at the limit (and its brand of 200 emoji) is taken');
  t.match(upsert.body.errors, [{ index: 1, code: 'invalid_product', message: /^id:/ }]);

  const del = await h.api.call('POST', '/v1/products/batch', { key: admin.key, body: { delete: [emoji(128), emoji(129)] } });
  t.equal(del.status, 200);
  t.equal(del.body.deleted, 1, 'the product stored under 128 emoji can be deleted');
  t.same(del.body.errors, [{ id: null, index: 1, code: 'invalid_id', message: 'a product id is a string of 1 to 128 characters' }]);
  const left = await h.api.deps.db('products').where({ tenant_id: admin.id }).count({ n: '*' });
  t.equal(Number(left[0].n), 0);
});

t.test('the OpenAPI document keeps the spec limits and says how they count', async (t) => {
  const doc = (await h.api.call('GET', '/v1/openapi.json')).body;
  t.match(doc.info.description, /count Unicode code points/);
  t.equal(doc.paths['/v1/keys'].post.requestBody.content['application/json'].schema.properties.name.maxLength, 100);
  const q = doc.paths['/v1/suggest'].get.parameters.find((p: { name: string }) => p.name === 'q');
  t.equal(q.schema.maxLength, 128);
});

t.test('DELETE /v1/products/{id} counts an id as the batch upsert does: 128 emoji pass, 129 fail', async (t) => {
  const product = (id: string) => ({ id, name: { en: 'smile' }, price: 1, currency: 'USD' });
  const atLimit = [emoji(128), `${emoji(127)}ب`, `${'a'.repeat(127)}${EMOJI}`];
  const upsert = await h.api.call('POST', '/v1/products/batch', { key: admin.key, body: { upsert: [...atLimit, emoji(129)].map(product) } });
  t.equal(upsert.body.upserted, 3, 'ids of 128 characters are taken by the upsert');
  t.match(upsert.body.errors, [{ index: 3, code: 'invalid_product', message: /^id:/ }], '129 is refused by the upsert');
  for (const id of atLimit) {
    const path = `/v1/products/${encodeURIComponent(id)}`;
    const got = await h.api.call('GET', path, { key: admin.key });
    t.equal(got.status, 200, `GET ${charLength(id)} characters, ${id.length} units`);
    t.equal(got.body.id, id);
    const del = await h.api.call('DELETE', path, { key: admin.key });
    t.equal(del.status, 200, `DELETE ${charLength(id)} characters, ${id.length} units: ${JSON.stringify(del.body)}`);
    t.same(del.body, { deleted: true, id });
  }
  const over = await h.api.call('DELETE', `/v1/products/${encodeURIComponent(emoji(129))}`, { key: admin.key });
  t.equal(over.status, 400, 'refused by the delete as by the upsert');
  t.match(over.body.error, { code: 'validation_failed', details: [{ in: 'path', field: 'product_id', code: 'too_long' }] });
  const left = await h.api.deps.db('products').where({ tenant_id: admin.id }).count({ n: '*' });
  t.equal(Number(left[0].n), 0);
});
