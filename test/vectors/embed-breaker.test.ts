import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';
import { QueryVectors } from '../../shared/vectors/index.js';
import { Breaker } from '../../shared/platform/breaker.js';
import { SearchService } from '../../shared/search/search-service.js';
import { searchInput } from '../search/search-input.js';
import { hybridKettleStore } from './kettle-store.js';

/**
 * The query embedder's breaker: after PROVIDER_BREAKER_FAILURES failed query embeddings in a row,
 * hybrid searches answer lexically without calling the provider (`embedder cooling down`, not
 * cached) until the cool-down is over; then one search asks it again, and its success closes the
 * breaker. The fake provider counts the calls.
 */

// In `rate_limit` mode every embeddings call is refused with 429.
const fake = await startFakeOpenAi({ rateLimited: 1_000_000 });
// A cool-down no test here outlives: the API's breaker stays open once it opened.
const { h } = await setupWithWorkers({
  EMBEDDER: 'openai',
  OPENAI_BASE_URL: fake.url,
  OPENAI_API_KEY: 'sk-test',
  PROVIDER_BREAKER_FAILURES: '3',
  PROVIDER_BREAKER_COOLDOWN_MS: '3600000',
  SEARCH_CACHE_TTL_MS: '3600000',
});
t.teardown(() => fake.close());
const deps = h.api.deps;
const { tenantId, key } = await hybridKettleStore(h, 'embed breaker');

const embedCalls = () => fake.requests.filter((r) => 'input' in r).length;
const hybridStep = (body: { debug?: unknown }) =>
  (body.debug as { steps: Array<Record<string, unknown>> } | undefined)?.steps.find((s) => s.step === 'hybrid') as Record<string, unknown>;
// Words no product has: only the vector side answers them (hybrid's zero-result rescue), so each asks for its embedding.
const WORDS = ['skillet', 'lettuce', 'spatula', 'toaster', 'blender'];

t.test('the API: after 3 failed query embeddings in a row, searches answer without asking the provider', async (t) => {
  fake.mode = 'rate_limit';
  const search = (q: string, debug = false) => h.api.call('POST', '/v1/search', { key, body: { q, debug } });
  for (const q of WORDS.slice(0, 3)) {
    const asked = embedCalls();
    const res = await search(q, true);
    t.equal(res.status, 200);
    t.equal(embedCalls() - asked, 1, `${q}: the provider was asked`);
    t.match(hybridStep(res.body), { reason: 'embedder failed' });
  }
  const asked = embedCalls();
  const skipped = await search(WORDS[3], true);
  t.equal(skipped.status, 200);
  t.match(hybridStep(skipped.body), { reason: 'embedder cooling down' });
  const shopper = await search(WORDS[4]);
  t.equal(shopper.status, 200);
  t.equal(shopper.body.total, 0, 'the lexical answer');
  const again = await search(WORDS[4]);
  t.equal(again.headers.get('x-search-cache'), 'miss', 'an answer without the vector side is not cached');
  t.equal(embedCalls() - asked, 0, 'the provider was not asked');
});

t.test('cool-down over: one search asks again and its success closes the breaker', async (t) => {
  // The same search path over the same store and provider, with a clock the test moves.
  const clock = { at: Date.now() };
  const vectors = new QueryVectors(
    deps.vectors,
    deps.embedders,
    undefined,
    400,
    new Breaker({ failures: 3, coolDownMs: 30_000, maxCoolDownMs: 120_000 }, () => clock.at),
  );
  const service = new SearchService(
    { engine: deps.engine, contexts: deps.contexts, log: deps.searchLog, notices: deps.notices, merch: deps.merch, rewriter: deps.rewriter, vectors },
    { ttlMs: 0, maxBytes: 2 ** 20 },
  );
  const search = async (q: string) => {
    const asked = embedCalls();
    const { body } = await service.search(tenantId, searchInput(q, { debug: true }));
    return { total: body.total, hybrid: hybridStep(body), calls: embedCalls() - asked };
  };

  fake.mode = 'rate_limit';
  for (const q of WORDS.slice(0, 3)) t.match(await search(q), { calls: 1, hybrid: { reason: 'embedder failed' } }, q);
  t.match(await search(WORDS[3]), { calls: 0, total: 0, hybrid: { reason: 'embedder cooling down' } }, 'open: not asked');
  fake.mode = 'translate';
  t.match(await search(WORDS[0]), { calls: 0, total: 0, hybrid: { reason: 'embedder cooling down' } }, 'the provider is back, the cool-down is not over');
  clock.at += 30_000;
  const probe = await search(WORDS[0]);
  // This process's first answer from the provider: it also learns the model's dimensions (one more call).
  t.ok(probe.calls > 0, `after the cool-down the provider is asked (${probe.calls} calls)`);
  t.match(probe, { hybrid: { rescued: true } }, 'and answers');
  t.ok(probe.total > 0, "the vector side's products");
  t.notOk(probe.hybrid.reason, JSON.stringify(probe.hybrid));
  t.match(await search(WORDS[1]), { calls: 1, hybrid: { rescued: true } }, 'closed: the next search asks as before');
  t.match(await search(WORDS[2]), { calls: 1, hybrid: { rescued: true } });
});
