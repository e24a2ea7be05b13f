import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { startFakeOpenAi, type FakeMode } from '../helpers/openai-fake.js';
import { hybridKettleStore } from './kettle-store.js';

/**
 * Hybrid search with the result cache on: an answer left lexical because the query embedding
 * failed (refused, or no answer in time) is not cached. The same query, once the provider answers
 * again, asks it again and gets the vector side's products; that full answer is then cached.
 */

// In `rate_limit` mode every embeddings call is refused with 429.
const fake = await startFakeOpenAi({ rateLimited: 1_000_000 });
// A long TTL: nothing in this file ages out of the cache; only what the fix changes keeps an answer out.
const { h } = await setupWithWorkers({ EMBEDDER: 'openai', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', SEARCH_CACHE_TTL_MS: '3600000' });
t.teardown(() => fake.close());
const deps = h.api.deps;
const { tenantId, key } = await hybridKettleStore(h, 'embed outage cache');

// No debug: a shopper's search, through the result cache.
const search = (q: string, debug = false) => h.api.call('POST', '/v1/search', { key, body: { q, debug } });
const embedCalls = () => fake.requests.filter((r) => 'input' in r).length;

// Words no product has: only the vector side answers them (hybrid's zero-result rescue).
for (const [mode, q, reason] of [
  ['rate_limit', 'skillet', 'embedder failed'],
  ['hang', 'lettuce', 'embed timeout'],
] as Array<[FakeMode, string, string]>) {
  t.test(`the provider failing (${reason}), then back: the same query gets the vector side`, async (t) => {
    fake.mode = mode;
    const asked = embedCalls();
    const failed = await search(q);
    t.equal(failed.status, 200);
    t.equal(failed.headers.get('x-search-cache'), 'miss');
    t.equal(failed.body.total, 0, 'lexical only: nothing matches the words');
    t.ok(embedCalls() > asked, 'the provider was asked');

    fake.mode = 'translate';
    const before = embedCalls();
    const back = await search(q);
    t.equal(back.status, 200);
    t.ok(embedCalls() > before, 'the provider was asked again');
    t.equal(back.headers.get('x-search-cache'), 'miss', 'not the failed answer from the cache');
    t.ok(back.body.total > 0, `the vector side's products: ${back.body.ids}`);

    const again = await search(q);
    t.equal(again.headers.get('x-search-cache'), 'hit', 'the full answer is cached');
    t.same(again.body.ids, back.body.ids);

    const traced = await search(q, true);
    t.match(
      traced.body.debug.steps.find((s: { step: string }) => s.step === 'hybrid'),
      { rescued: true },
    );
    t.same(traced.body.ids, back.body.ids, 'the answer the hybrid step gives');
  });
}

t.test('a healthy answer is cached as before', async (t) => {
  fake.mode = 'translate';
  const first = await search('steel kettle');
  t.equal(first.headers.get('x-search-cache'), 'miss');
  const second = await search('steel kettle');
  t.equal(second.headers.get('x-search-cache'), 'hit');
  t.same(second.body.ids, first.body.ids);
});
