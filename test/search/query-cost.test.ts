import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { setup } from '../helpers/harness.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS } from './fixtures.js';
import { createDeps } from '../../shared/deps.js';
import { boundWords, MAX_FALLBACK_TERMS, MAX_QUERY_WORDS } from '../../shared/search/query-bounds.js';

// Issue 12, item 6: 128 one-letter words in `q` (within its 256 characters) cost seconds of
// Postgres time per search. The plan keeps at most MAX_QUERY_WORDS distinct words (the any-word
// fallback its MAX_FALLBACK_TERMS rarest), and every statement of the API's pool is cancelled
// past API_STATEMENT_TIMEOUT_MS with 503 `query_timeout` and Retry-After.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200', SEARCH_CACHE_TTL_MS: '0' });
const letters = 'abcdefghijklmnopqrstuvwxyz';
const extra = ['a', 'b', 'c', 'x', 'z'].map((l, i) => ({ id: `one${i}`, name: { en: `Type ${l} cable model ${l}` }, price: 10, currency: 'SAR' }));
const stores = [];
for (const name of ['attacked', 'neighbour']) {
  const { id, key } = await h.tenant(name);
  await loadProducts(h, key, id, [...PRODUCTS, ...extra]);
  const pub = await h.api.call('POST', '/v1/keys', { key, body: { name: 'web', kind: 'public', allowed_origins: ['https://shop.example'] } });
  stores.push({ id, key, pub: pub.body.key as string });
}
const [attacked, neighbour] = stores;
const words128 = Array.from({ length: 128 }, (_, i) => letters[(i * 7) % 26]).join(' ');
const shopper = (pub: string, q: string) =>
  h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key: pub, headers: { origin: 'https://shop.example' } });
type Step = { step: string; tokens?: string[]; dropped_words?: number; terms?: number };

t.test('the 128-word query is planned with at most 16 words, the fallback with its 8 rarest', async (t) => {
  t.equal(words128.length, 255);
  const res = await h.api.call('GET', `/v1/search?q=${encodeURIComponent(words128)}&debug=true`, { key: attacked.key });
  t.equal(res.status, 200);
  const steps = res.body.debug.steps as Step[];
  const syn = steps.find((s) => s.step === 'synonyms')!;
  t.equal(syn.tokens!.length, MAX_QUERY_WORDS, `${MAX_QUERY_WORDS} words considered`);
  t.equal(syn.dropped_words, 128 - MAX_QUERY_WORDS, 'repeats and extra words dropped, and the trace says how many');
  t.same(syn.tokens, [...new Set(words128.split(' '))].slice(0, MAX_QUERY_WORDS), 'the first distinct words, in order');
  const fallback = steps.find((s) => s.step === 'fallback')!;
  t.ok(fallback.terms! <= MAX_FALLBACK_TERMS, `the fallback ORed ${fallback.terms} terms`);
  const fromShopper = await shopper(attacked.pub, words128);
  t.equal(fromShopper.status, 200, 'a public key gets an answer, not an error');
  t.ok(fromShopper.body.ids.length > 0, 'the rare words still find their products');
});

t.test('boundWords: each word once, at most 16; as-you-type keeps the word being typed', async (t) => {
  t.same(boundWords(['red', 'dress', 'red']), { words: ['red', 'dress'], dropped: 1 });
  const forty = Array.from({ length: 40 }, (_, i) => `w${i}`);
  t.same(boundWords(forty).words, forty.slice(0, 16));
  t.same(boundWords(forty, { keepLast: true }).words, [...forty.slice(0, 15), 'w39']);
  t.same(boundWords(['iphone', 'case', 'iph'], { keepLast: true }).words, ['iphone', 'case', 'iph'], 'short queries unchanged');
});

t.test('another store answers the same while four of these queries run', async (t) => {
  const queries = ['laptop', 'smartphone red', 'cotton dress', 'type x cable'];
  const before = await Promise.all(queries.map(async (q) => (await shopper(neighbour.pub, q)).body.ids));
  t.ok(before.every((ids) => ids.length > 0));
  const storm = Promise.all(Array.from({ length: 4 }, () => shopper(attacked.pub, words128)));
  const during = [];
  for (let i = 0; i < 3; i++) during.push(await Promise.all(queries.map(async (q) => shopper(neighbour.pub, q))));
  for (const res of await storm) t.equal(res.status, 200);
  for (const round of during) {
    t.same(
      round.map((r) => r.status),
      [200, 200, 200, 200],
    );
    t.same(
      round.map((r) => r.body.ids),
      before,
      'same answers as before',
    );
  }
});

t.test('a statement past API_STATEMENT_TIMEOUT_MS is cancelled: 503 query_timeout with Retry-After', async (t) => {
  const slow = await setup({ API_STATEMENT_TIMEOUT_MS: '300' });
  t.teardown(() => slow.close());
  const { key } = await slow.tenant();
  t.equal((await slow.api.call('GET', '/v1/search?q=laptop', { key })).status, 200);
  t.equal((await slow.api.deps.db.raw('SHOW statement_timeout')).rows[0].statement_timeout, '300ms', 'the API pool has the timeout');
  t.equal((await h.api.deps.db.raw('SHOW statement_timeout')).rows[0].statement_timeout, '3s', 'the default is 3 s');

  // Another session holds a lock the search's statement waits on, past the timeout.
  const trx = await slow.api.deps.db.transaction();
  await trx.raw('SET LOCAL statement_timeout = 0');
  await trx.raw('LOCK TABLE search_generations, products IN ACCESS EXCLUSIVE MODE');
  const blocked = await slow.api.call('GET', '/v1/search?q=phone', { key });
  const write = await slow.api.call('POST', '/v1/products/batch', {
    key,
    body: { upsert: [{ id: 'p1', name: { en: 'x' }, price: 1, currency: 'USD' }] },
    headers: { 'idempotency-key': 'timeout-batch-1' },
  });
  await trx.rollback();
  t.equal(blocked.status, 503);
  t.equal(blocked.body.error.code, 'query_timeout');
  t.equal(blocked.headers.get('retry-after'), '1');
  t.equal((await slow.api.call('GET', '/v1/search?q=phone', { key })).status, 200, 'answers again once the lock is gone');
  t.equal(write.status, 503, 'a batch write is bounded too');
  t.equal(write.body.error.code, 'query_timeout');
  const retry = await slow.api.call('POST', '/v1/products/batch', {
    key,
    body: { upsert: [{ id: 'p1', name: { en: 'x' }, price: 1, currency: 'USD' }] },
    headers: { 'idempotency-key': 'timeout-batch-1' },
  });
  t.equal(retry.status, 200, 'a 503 freed the Idempotency-Key: the retry runs');
});

t.test('workers and scripts have no statement timeout (they run long statements)', async (t) => {
  const deps = createDeps(h.config, { role: 'worker' });
  t.teardown(() => deps.close());
  t.equal((await deps.db.raw('SHOW statement_timeout')).rows[0].statement_timeout, '0');
});
