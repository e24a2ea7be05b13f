import t from 'tap';
import { rewriteAnswer, type FakeCall, type FakeReply } from './openai-fake.js';
import { aiRewriteStore } from './ai-store.js';

/**
 * AI query rewriting with the result cache on: an answer the plain search gave because the model
 * failed (no answer in time, server errors) is not cached. The same query, once the model answers
 * again, asks it again and gets the rewrite; that full answer is then cached.
 */

// A long TTL: nothing in this file ages out of the cache; only what the fix changes keeps an answer out.
const { fake, h, key } = await aiRewriteStore({ LLM_TIMEOUT_MS: '1000', SEARCH_CACHE_TTL_MS: '3600000' });

// No debug: a shopper's search (ai=auto), through the result cache.
const search = async (q: string) => {
  const res = await h.api.call('POST', '/v1/search', { key, body: { q } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { body: res.body, cache: res.headers.get('x-search-cache') };
};
const healthy = fake.reply;
const serverError: (call: FakeCall) => FakeReply = () => ({ status: 503, error: 'The engine is currently overloaded', type: 'server_error' });

t.test('the rewrite step: the model not answering in time, then back', async (t) => {
  const q = 'i am looking for a phone to call my mom, not too pricey';
  const good = { json: rewriteAnswer('smartphone', { brand: ['samsung'], price_max: 3000 }) };
  fake.next.push({ ...good, delayMs: 3000 });
  const before = fake.calls.length;
  const failed = await search(q);
  t.equal(fake.calls.length, before + 1, 'the model was asked');
  t.match(failed.body.query, { ai_used: false }, 'the plain search answered');
  t.equal(failed.cache, 'miss');

  fake.next.push(good);
  const back = await search(q);
  t.equal(fake.calls.length, before + 2, 'the model was asked again');
  t.equal(back.cache, 'miss', 'not the plain answer from the cache');
  t.match(back.body.query, { ai_used: true, rewritten: 'smartphone', filters: { brand: ['Samsung'] } });
  t.same(back.body.ids, ['ph1'], 'the Samsung smartphone under 3000');

  const again = await search(q);
  t.equal(again.cache, 'hit', 'the full answer is cached');
  t.same(again.body.ids, ['ph1']);
  t.equal(fake.calls.length, before + 2);
});

t.test('the zero-results retry: the model failing with server errors, then back', async (t) => {
  const q = 'samsung notebook';
  // A reply queued above and never asked for (the old code answered from the cache) does not answer here.
  fake.next.length = 0;
  fake.reply = serverError;
  const before = fake.calls.length;
  const failed = await search(q);
  fake.reply = healthy;
  t.ok(fake.calls.length > before, 'the model was asked');
  t.match(failed.body.query, { ai_used: false });
  t.notSame(failed.body.ids, ['lap3'], 'the plain search answered');

  const asked = fake.calls.length;
  fake.next.push({ json: rewriteAnswer('laptop', { brand: ['Apple'] }) });
  const back = await search(q);
  t.equal(fake.calls.length, asked + 1, 'the model was asked again');
  t.equal(back.cache, 'miss', 'not the plain answer from the cache');
  t.match(back.body.query, { ai_used: true, rewritten: 'laptop' });
  t.same(back.body.ids, ['lap3'], 'the query ran again with the rewrite');

  const again = await search(q);
  t.equal(again.cache, 'hit', 'the full answer is cached');
  t.same(again.body.ids, ['lap3']);
});

t.test('a query that needs no rewrite is cached as before', async (t) => {
  const first = await search('laptop');
  t.equal(first.cache, 'miss');
  t.equal((await search('laptop')).cache, 'hit');
});
