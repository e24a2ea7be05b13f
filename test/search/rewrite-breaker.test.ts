import t from 'tap';
import { createLlm } from '../../shared/engines/llm/create-llm.js';
import { Breaker } from '../../shared/platform/breaker.js';
import { Rewriter } from '../../shared/search/rewrite/rewriter.js';
import { SearchService } from '../../shared/search/search-service.js';
import { searchInput } from './search-input.js';
import { rewriteAnswer, type FakeCall, type FakeReply } from './openai-fake.js';
import { aiRewriteStore } from './ai-store.js';

/**
 * The AI rewrite provider's breaker: after PROVIDER_BREAKER_FAILURES searches in a row whose call
 * failed (server errors, no answer in time), searches answer with the plain search without calling
 * the model (`cooling_down`, not cached) until the cool-down is over; then one search asks again,
 * and its success closes the breaker. A refused request (400) is the provider answering: it never
 * opens it. The fake model counts the calls.
 */

// A cool-down no test here outlives: the API's breaker stays open once it opened.
const { fake, h, tenantId, key } = await aiRewriteStore({
  LLM_TIMEOUT_MS: '300',
  PROVIDER_BREAKER_FAILURES: '3',
  PROVIDER_BREAKER_COOLDOWN_MS: '3600000',
  SEARCH_CACHE_TTL_MS: '3600000',
});
const deps = h.api.deps;
const healthy = fake.reply;
const serverError: (call: FakeCall) => FakeReply = () => ({ status: 503, error: 'The engine is currently overloaded', type: 'server_error' });
const refused: (call: FakeCall) => FakeReply = () => ({ status: 400, error: 'Invalid schema for response_format', type: 'invalid_request_error' });
const rewriteOf = (body: { debug?: unknown }) => (body.debug as { steps: Array<Record<string, any>> } | undefined)?.steps.find((s) => s.step === 'rewrite');

t.test('the API: refusals never open it; 3 failed calls in a row do, and searches answer without asking', async (t) => {
  const search = (q: string, debug = false) => h.api.call('POST', '/v1/search', { key, body: { q, ai: 'on', debug } });
  fake.reply = refused;
  for (const q of ['blue cotton shirt', 'black leather boots', 'wireless gaming mouse', 'small coffee table']) {
    const asked = fake.calls.length;
    const res = await search(q, true);
    t.equal(fake.calls.length - asked, 1, `${q}: asked, refused`);
    t.match(rewriteOf(res.body), { decision: 'error' });
  }
  fake.reply = serverError;
  for (const q of ['red running shoes', 'white desk lamp', 'green winter jacket']) {
    const asked = fake.calls.length;
    const res = await search(q, true);
    t.equal(res.status, 200);
    t.ok(fake.calls.length > asked, `${q}: asked`);
    t.match(rewriteOf(res.body), { decision: 'error' });
  }
  fake.reply = healthy;
  const asked = fake.calls.length;
  const skipped = await search('grey wool scarf', true);
  t.equal(skipped.status, 200);
  t.match(rewriteOf(skipped.body), { decision: 'cooling_down' });
  t.match(skipped.body.query, { ai_used: false });
  const shopper = await search('brown leather belt');
  t.equal(shopper.status, 200);
  t.equal(shopper.headers.get('x-search-cache'), 'miss');
  const again = await search('brown leather belt');
  t.equal(again.headers.get('x-search-cache'), 'miss', 'an answer without the rewrite is not cached');
  t.equal(fake.calls.length - asked, 0, 'the model was not asked');
});

t.test('cool-down over: one search asks again and its success closes the breaker', async (t) => {
  // The same search path over the same store and model, with a clock the test moves.
  const clock = { at: Date.now() };
  const rewriter = new Rewriter(
    createLlm(h.config),
    deps.redis,
    deps.rewriter.budget,
    { timeoutMs: 300, cacheTtlS: 60, prefix: `${h.config.queuePrefix}-breaker` },
    new Breaker({ failures: 3, coolDownMs: 30_000, maxCoolDownMs: 120_000 }, () => clock.at),
  );
  const service = new SearchService(
    { engine: deps.engine, contexts: deps.contexts, log: deps.searchLog, notices: deps.notices, merch: deps.merch, rewriter },
    { ttlMs: 0, maxBytes: 2 ** 20 },
  );
  const search = async (q: string) => {
    const asked = fake.calls.length;
    const { body } = await service.search(tenantId, searchInput(q, { debug: true, ai: 'on' }));
    return { decision: rewriteOf(body)?.decision, used: body.query.ai_used, calls: fake.calls.length - asked };
  };

  fake.reply = serverError;
  for (const q of ['red running shoes', 'white desk lamp', 'green winter jacket']) {
    const r = await search(q);
    t.ok(r.calls > 0, `${q}: asked`);
    t.equal(r.decision, 'error');
  }
  t.match(await search('grey wool scarf'), { calls: 0, decision: 'cooling_down', used: false }, 'open: not asked');
  fake.reply = () => ({ json: rewriteAnswer('smartphone') });
  t.match(await search('i want a phone to call my mom'), { calls: 0, decision: 'cooling_down' }, 'the model is back, the cool-down is not over');
  clock.at += 30_000;
  t.match(await search('i want a phone to call my mom'), { calls: 1, decision: 'applied', used: true }, 'after the cool-down: asked, and answered');
  t.match(await search('a phone for my dad please'), { calls: 1, decision: 'applied' }, 'closed: the next search asks as before');
  fake.reply = healthy;
});
