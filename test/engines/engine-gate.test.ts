import t from 'tap';
import { BACKGROUND_WAIT_MS, EngineGate } from '../../shared/engines/lexical/gated.engine.js';
import { inBackground } from '../../shared/platform/background.js';
import { withEngineTiming } from '../../shared/platform/metrics.js';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS } from '../search/fixtures.js';
import { normalizeText, tokenize } from '../../shared/text/normalize.js';

/**
 * A call through `gate` that runs until `finish` is called; `started` says whether the gate let
 * it run. `at`: when its request came; `background`: run inside inBackground.
 */
function held(gate: EngineGate, log: string[], name: string, opts: { at?: number; background?: boolean } = {}) {
  let finish!: (fail?: boolean) => void;
  const state = { started: false };
  const call = () => {
    state.started = true;
    log.push(name);
    return new Promise<void>((resolve, reject) => (finish = (fail) => (fail ? reject(new Error(name)) : resolve())));
  };
  const done = opts.background ? inBackground(() => gate.run(call)) : gate.run(call, opts.at);
  return { state, done, finish: (fail?: boolean) => finish(fail) };
}
const tick = () => new Promise((r) => setImmediate(r));

// The service's engine with one place (SEARCH_ENGINE_CONCURRENCY), no result cache.
const { h } = await setupWithWorkers({ SEARCH_ENGINE_CONCURRENCY: '1', SEARCH_CACHE_TTL_MS: '0', VOCAB_DEBOUNCE_MS: '200' });
const store = await h.tenant('gate');
await loadProducts(h, store.key, store.id, PRODUCTS);

t.test('a place at a time: the oldest request first, a failed call frees its place', async (t) => {
  const gate = new EngineGate(1);
  const log: string[] = [];
  const calls = [held(gate, log, 'r10', { at: 10 }), held(gate, log, 'r11', { at: 11 }), held(gate, log, 'r12', { at: 12 })];
  // The request of time 5 sends its second statement (its fallback) now: it goes before 11 and 12.
  calls.push(held(gate, log, 'r5 fallback', { at: 5 }), held(gate, log, 'r13', { at: 13 }));
  await tick();
  t.same(log, ['r10'], 'one running');
  t.equal(gate.queued, 4);
  for (let i = 0; i < 5; i++) {
    const running = calls.find((c) => c.state.started && !(c as { ended?: boolean }).ended)!;
    (running as { ended?: boolean }).ended = true;
    running.finish(i === 1);
    await running.done.catch(() => undefined);
    await tick();
  }
  t.same(log, ['r10', 'r5 fallback', 'r11', 'r12', 'r13']);
  t.equal(gate.queued, 0);
});

t.test('below the limit nothing waits', async (t) => {
  const gate = new EngineGate(3);
  const log: string[] = [];
  const calls = [1, 2, 3].map((i) => held(gate, log, `c${i}`));
  await tick();
  t.equal(log.length, 3, 'three places, three running');
  t.equal(gate.queued, 0);
  const fourth = held(gate, log, 'c4');
  await tick();
  t.notOk(fourth.state.started, 'the fourth waits');
  calls[2].finish();
  await calls[2].done;
  await tick();
  t.ok(fourth.state.started, 'and runs when one ends');
  for (const c of [...calls.slice(0, 2), fourth]) c.finish();
});

t.test('background work (a cache refreshing what it still answers) waits for shoppers, leaves them a place, and not forever', async (t) => {
  const gate = new EngineGate(2);
  const log: string[] = [];
  const refresh1 = held(gate, log, 'refresh1', { background: true });
  const refresh2 = held(gate, log, 'refresh2', { background: true });
  await tick();
  t.same(log, ['refresh1'], 'one place of two for background work: the other stays free');
  const shopper = held(gate, log, 'shopper');
  await tick();
  t.ok(shopper.state.started, "a shopper's search runs at once in the free place");
  const second = held(gate, log, 'shopper2');
  refresh1.finish();
  await refresh1.done;
  await tick();
  t.same(log, ['refresh1', 'shopper', 'shopper2'], 'a waiting shopper goes before waiting background work');
  shopper.finish();
  second.finish();
  await Promise.all([shopper.done, second.done]);
  await tick();
  t.same(log.at(-1), 'refresh2', 'background work runs once no shopper waits');
  refresh2.finish();
  await refresh2.done;

  // Under steady load background work still gets its turn after BACKGROUND_WAIT_MS.
  const busy = [held(gate, log, 'c0'), held(gate, log, 'c1')];
  const late = held(gate, log, 'late refresh', { background: true });
  const queued = [held(gate, log, 'c2'), held(gate, log, 'c3')];
  await new Promise((r) => setTimeout(r, BACKGROUND_WAIT_MS + 50));
  busy[0].finish();
  await busy[0].done;
  await tick();
  t.ok(late.state.started && !queued[0].state.started, 'overdue background work goes first');
  for (const c of [busy[1], late]) c.finish();
  await Promise.all([busy[1].done, late.done]);
  await tick();
  for (const c of queued) c.finish();
  await Promise.all(queued.map((c) => c.done));
  t.equal(gate.queued, 0);
});

t.test("the service's engine, one place: a request's later statement goes before the statements of requests that came after it", async (t) => {
  const engine = h.api.deps.engine;
  const query = () => ({ tenantId: store.id, tokens: tokenize(normalizeText('laptop')), prefixLast: true, offset: 0, limit: 10 });
  const order: string[] = [];
  t.ok((await engine.search(query())).total > 0, 'the store has laptops');
  const now = performance.now();
  // Four requests, each searching once, as the search routes run them (inside their timing scope).
  const searches = [1, 2, 3, 4].map((i) => withEngineTiming(() => engine.search(query()), now + i).then(() => order.push(`request${i}`)));
  // A request that came before them all sends its second statement.
  searches.push(withEngineTiming(() => engine.search(query()), now - 100).then(() => order.push('earlier request')));
  await Promise.all(searches);
  t.same(order, ['request1', 'earlier request', 'request2', 'request3', 'request4']);
  const res = await h.api.call('GET', '/v1/search?q=laptop', { key: store.key });
  t.equal(res.status, 200, 'searches through the API pass the gate');
  t.ok(res.body.total > 0, 'and find them');
});
