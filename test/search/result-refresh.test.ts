import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// A hot query's cached result is refreshed in the background as it nears its age limit: the
// shopper gets the cached answer at once, the engine runs once behind it, and only shoppers'
// requests are logged.
const TTL_MS = 2000;
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200', SEARCH_CACHE_TTL_MS: String(TTL_MS) });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  { id: 'l1', name: { en: 'Walnut desk lamp' }, price: 10, currency: 'USD' },
  { id: 'l2', name: { en: 'Brass floor lamp' }, price: 20, currency: 'USD' },
]);

const engine = h.api.deps.engine;
const search = engine.search.bind(engine);
let engineQueries = 0;
/** While set, engine queries wait for it: an answer that comes meanwhile did not wait on the engine. */
let gate: Promise<void> | null = null;
engine.search = async (q) => {
  engineQueries++;
  if (gate) await gate;
  return search(q);
};
const lamp = async () => (await h.api.call('GET', '/v1/search?q=lamp', { key })).body as { search_id: string; ids: string[] };
const logged = async () => {
  await h.api.deps.searchLog.flush();
  return (await h.api.deps.db('search_log').where({ tenant_id: tenantId, query: 'lamp' }).select('id')).map((r: { id: string }) => r.id);
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('an entry past its age limit answers at once and is refreshed once behind the answer', async (t) => {
  // The load's vocabulary and dictionary notices each drop the tenant's cached results: wait until they have landed.
  await waitFor(
    async () => {
      await lamp();
      const n = engineQueries;
      await sleep(300);
      await lamp();
      return engineQueries === n;
    },
    15_000,
    'cached results that stay',
  );
  const logsBefore = (await logged()).length;
  const n = engineQueries;
  const first = await lamp();
  t.equal(engineQueries, n, 'fresh: from the cache');
  await sleep(TTL_MS + 50);
  let open = () => {};
  gate = new Promise((r) => (open = r));
  const second = await lamp();
  t.same(second.ids, first.ids, 'the cached answer while the engine is held');
  t.equal(engineQueries, n + 1, 'one refresh started behind it');
  gate = null;
  open();
  await sleep(100);
  await lamp();
  t.equal(engineQueries, n + 1, 'the refreshed entry answers');
  const ids = await logged();
  t.equal(ids.length - logsBefore, 3, 'three searches logged, the refresh not');
  t.ok(
    [first, second].every((b) => ids.includes(b.search_id)),
    'each with its own search_id',
  );
  t.not(first.search_id, second.search_id);
});

t.test('an entry older than twice the age limit is computed before answering', async (t) => {
  await sleep(2 * TTL_MS + 50);
  const before = engineQueries;
  await lamp();
  t.equal(engineQueries, before + 1);
});
