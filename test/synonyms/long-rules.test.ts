import t from 'tap';
import { setup } from '../helpers/harness.js';

// A rule at the README's bounds (50 terms of 200 characters) is a valid rule: it is stored, found as a
// duplicate, replaced and imported like any other. Its normalized identity is about 10,000 characters
// (20 kB in Arabic), past what one btree entry holds (2,704 bytes): the insert used to fail with a 500.
const h = await setup();
t.teardown(() => h.close());
const a = await h.tenant('Long rules');
const call = (method: string, path: string, body?: unknown) => h.api.call(method, path, { key: a.key, body });

let seed = 7;
const letter = (alphabet: string) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return alphabet[seed % alphabet.length];
};
const word = (alphabet: string, n = 200) => Array.from({ length: n }, () => letter(alphabet)).join('');
const latin = Array.from({ length: 50 }, () => word('abcdefghijklmnopqrstuvwxyz'));
const arabic = Array.from({ length: 50 }, () => word('بتثجحخدذرزسشصضطظعغفقكلمنهوي'));

t.test('a rule of 50 terms of 200 characters is created, and a second one is a 409 naming it', async (t) => {
  const made = await call('POST', '/v1/synonyms', { kind: 'equivalent', terms: latin });
  t.equal(made.status, 201, JSON.stringify(made.body).slice(0, 200));
  t.same(made.body.terms, latin);
  const again = await call('POST', '/v1/synonyms', { kind: 'equivalent', terms: [...latin].reverse() });
  t.equal(again.status, 409);
  t.match(again.body.error, { code: 'synonym_duplicate', details: { existing_id: made.body.id } });
  const oneWay = await call('POST', '/v1/synonyms', { kind: 'one_way', input: arabic[0], outputs: arabic.slice(1) });
  t.equal(oneWay.status, 201, 'Arabic one_way rule at the bounds');
  const put = await call('PUT', `/v1/synonyms/${oneWay.body.id}`, { kind: 'equivalent', terms: arabic, set_key: 'ar' });
  t.equal(put.status, 200, 'replaced into an Arabic rule at the bounds');
  t.same(put.body.terms, arabic);
});

t.test('an import with such a rule applies it and the other lines', async (t) => {
  const b = await h.tenant('Long import');
  const content = ['tv, television', latin.slice(0, 30).join(', '), `${arabic[0]} => ${arabic.slice(1, 40).join(', ')}`].join('\n');
  const res = await h.api.call('POST', '/v1/synonyms/import', { key: b.key, body: { format: 'solr', content } });
  t.equal(res.status, 200);
  t.same(res.body, { created: 3, updated: 0, skipped: 0, deleted: 0, errors: [] });
  const again = await h.api.call('POST', '/v1/synonyms/import', { key: b.key, body: { format: 'solr', content } });
  t.same(again.body, { created: 0, updated: 0, skipped: 3, deleted: 0, errors: [] }, 'imported again: skipped');
});
