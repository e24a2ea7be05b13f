import t from 'tap';
import { BACKGROUND_WAIT_MS, FairGate } from '../../shared/engines/lexical/fair.engine.js';
import { inBackground } from '../../shared/platform/background.js';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS } from '../search/fixtures.js';
import { normalizeText, tokenize } from '../../shared/text/normalize.js';

/** A call that runs until `finish` is called; `started` says whether the gate let it run. */
function held(gate: FairGate, tenantId: string, log: string[], name: string, background = false) {
  let finish!: (fail?: boolean) => void;
  const state = { started: false };
  const enter = <T>(work: () => Promise<T>) => (background ? inBackground(work) : work());
  const done = enter(() =>
    gate.run(tenantId, () => {
      state.started = true;
      log.push(name);
      return new Promise<void>((resolve, reject) => (finish = (fail) => (fail ? reject(new Error(name)) : resolve())));
    }),
  );
  return { state, done, finish: (fail?: boolean) => finish(fail) };
}
const tick = () => new Promise((r) => setImmediate(r));

// The service's engine with one place (SEARCH_ENGINE_CONCURRENCY), no result cache.
const { h } = await setupWithWorkers({ SEARCH_ENGINE_CONCURRENCY: '1', SEARCH_CACHE_TTL_MS: '0', VOCAB_DEBOUNCE_MS: '200' });
const busy = await h.tenant('busy');
const small = await h.tenant('small');
await loadProducts(h, busy.key, busy.id, PRODUCTS);
await loadProducts(h, small.key, small.id, PRODUCTS.slice(0, 5));

t.test('a place at a time: stores take turns, each store in its own order', async (t) => {
  const gate = new FairGate(1);
  const log: string[] = [];
  // Store a sends five searches at once, then b and c one each, then a sixth from a.
  const calls = [1, 2, 3, 4, 5].map((i) => held(gate, 'a', log, `a${i}`));
  calls.push(held(gate, 'b', log, 'b1'), held(gate, 'c', log, 'c1'), held(gate, 'a', log, 'a6'));
  await tick();
  t.same(log, ['a1'], 'one running');
  t.equal(gate.queued, 7);
  for (let i = 0; i < 7; i++) {
    const running = calls.find((c) => c.state.started && !(c as { ended?: boolean }).ended)!;
    (running as { ended?: boolean }).ended = true;
    running.finish(i === 1);
    await running.done.catch(() => undefined);
    await tick();
  }
  t.same(log, ['a1', 'a2', 'b1', 'c1', 'a3', 'a4', 'a5', 'a6'], 'after a2 the others get their turn; a failed call frees its place too');
  t.equal(gate.queued, 0);
});

t.test('below the limit nothing waits', async (t) => {
  const gate = new FairGate(3);
  const log: string[] = [];
  const calls = ['x', 'x', 'y'].map((s, i) => held(gate, s, log, `${s}${i}`));
  await tick();
  t.equal(log.length, 3, 'three places, three running');
  t.equal(gate.queued, 0);
  const fourth = held(gate, 'x', log, 'x3');
  await tick();
  t.notOk(fourth.state.started, 'the fourth waits');
  calls[2].finish();
  await calls[2].done;
  await tick();
  t.ok(fourth.state.started, 'and runs when one ends');
  for (const c of [...calls.slice(0, 2), fourth]) c.finish();
});

t.test('background work (a cache refreshing what it still answers) waits for shoppers, leaves them a place, and not forever', async (t) => {
  const gate = new FairGate(2);
  const log: string[] = [];
  const refresh1 = held(gate, 'a', log, 'refresh1', true);
  const refresh2 = held(gate, 'a', log, 'refresh2', true);
  await tick();
  t.same(log, ['refresh1'], 'one place of two for background work: the other stays free');
  const shopper = held(gate, 'b', log, 'shopper');
  await tick();
  t.ok(shopper.state.started, "a shopper's search runs at once in the free place");
  const second = held(gate, 'b', log, 'shopper2');
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
  const busy = [held(gate, 'c', log, 'c0'), held(gate, 'c', log, 'c1')];
  const late = held(gate, 'a', log, 'late refresh', true);
  const queued = [held(gate, 'c', log, 'c2'), held(gate, 'c', log, 'c3')];
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

t.test("the service's engine: with one place, a small store's search waits for one of a busy store's, not all of them", async (t) => {
  const engine = h.api.deps.engine;
  const query = (tenantId: string) => ({ tenantId, tokens: tokenize(normalizeText('cable')), prefixLast: true, offset: 0, limit: 10 });
  const order: string[] = [];
  const searches = [];
  for (let i = 0; i < 6; i++) searches.push(engine.search(query(busy.id)).then(() => order.push(`busy${i}`)));
  searches.push(engine.search(query(small.id)).then(() => order.push('small')));
  await Promise.all(searches);
  t.equal(order.indexOf('small'), 2, `answered third, after the running search and one more of the busy store: ${order}`);
  const res = await h.api.call('GET', '/v1/search?q=cable', { key: small.key });
  t.equal(res.status, 200, 'searches through the API pass the gate');
});
