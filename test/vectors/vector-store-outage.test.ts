import t from 'tap';
import { setupWithWorkers, eventually, noticesDelivered } from '../helpers/workers.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';
import { startQdrantFake } from './qdrant-fake.js';
import { hybridKettleStore } from './kettle-store.js';

/**
 * Hybrid search with the Qdrant adapter when Qdrant answers every request with 503: the search
 * answers with the lexical results (never 500), says why in the debug trace, and that answer is
 * not cached. Once Qdrant answers again, the same query gets the vector side's products.
 */

const embedder = await startFakeOpenAi();
const qdrant = await startQdrantFake('secret');
// A long TTL: nothing in this file ages out of the cache; only what the fix changes keeps an answer out.
const { h } = await setupWithWorkers({
  EMBEDDER: 'openai',
  OPENAI_BASE_URL: embedder.url,
  OPENAI_API_KEY: 'sk-test',
  VECTOR_STORE: 'qdrant',
  QDRANT_URL: qdrant.url,
  QDRANT_API_KEY: 'secret',
  SEARCH_CACHE_TTL_MS: '3600000',
});
t.teardown(async () => {
  await embedder.close();
  await qdrant.close();
});
const deps = h.api.deps;
const { key } = await hybridKettleStore(h, 'vector store outage');
const session = (await h.api.call('POST', '/v1/sessions', { key, body: {} })).body.token as string;

// No debug: a shopper's search, through the result cache.
const search = (q: string) => h.api.call('POST', '/v1/search', { key, body: { q } });
const traced = (q: string, hybrid = true) =>
  h.api.call('POST', '/v1/search', { key: session, body: { q, debug: true, config_override: { hybrid_search: hybrid } } });
const hybridStep = (body: { debug?: { steps: Array<{ step: string }> } }) => body.debug?.steps.find((s) => s.step === 'hybrid');
const queries = () => qdrant.requests.filter((r) => r.path.endsWith('/points/query')).length;

t.test('Qdrant failing for a query nothing matches lexically, then back: the same query gets the vector side', async (t) => {
  qdrant.fault.status = 503;
  const asked = queries();
  const failed = await search('skillet');
  t.equal(failed.status, 200, JSON.stringify(failed.body).slice(0, 300));
  t.equal(failed.headers.get('x-search-cache'), 'miss');
  t.equal(failed.body.total, 0, 'lexical only: nothing matches the words');
  t.ok(queries() > asked, 'Qdrant was asked');
  const why = await traced('skillet');
  t.equal(why.status, 200);
  t.match(hybridStep(why.body), { reason: 'vector store failed', rescued: false });

  qdrant.fault.status = 0;
  const back = await search('skillet');
  t.equal(back.status, 200);
  t.equal(back.headers.get('x-search-cache'), 'miss', 'not the failed answer from the cache');
  t.ok(back.body.total > 0, `the vector side's products: ${back.body.ids}`);
  const again = await search('skillet');
  t.equal(again.headers.get('x-search-cache'), 'hit', 'the full answer is cached');
  t.same(again.body.ids, back.body.ids);
  t.match(hybridStep((await traced('skillet')).body), { rescued: true });
});

t.test('Qdrant failing for a query with lexical matches: the lexical results', async (t) => {
  const lexical = await traced('travel kettle', false);
  t.equal(lexical.status, 200);
  t.ok(lexical.body.ids.includes('k2'), `${lexical.body.ids}`);
  qdrant.fault.status = 503;
  try {
    const res = await traced('travel kettle');
    t.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    t.same(res.body.ids, lexical.body.ids, 'the lexical answer');
    t.match(hybridStep(res.body), { reason: 'vector store failed' });
  } finally {
    qdrant.fault.status = 0;
  }
});

t.test('Qdrant failing with hybrid search off: click learning still answers, boosting the chosen product without its neighbours', async (t) => {
  const store = await h.tenant('click feedback, vector store outage');
  const kettles = Array.from({ length: 6 }, (_, i) => ({ id: `c${i}`, name: { en: `Copper kettle ${i}` }, price: 30 + i, currency: 'USD' }));
  t.equal((await h.api.call('POST', '/v1/products/batch', { key: store.key, body: { upsert: kettles } })).status, 200);
  await eventually(async () => (await deps.vectors.count(store.id)) === kettles.length, 60_000, 100);
  await noticesDelivered(deps);
  const token = (await h.api.call('POST', '/v1/sessions', { key: store.key, body: {} })).body.token as string;
  const lexical = (await h.api.call('POST', '/v1/search', { key: token, body: { q: 'copper kettle', debug: true } })).body.ids as string[];
  t.ok(lexical.length > 1, `${lexical}`);
  const chosen = lexical[lexical.length - 1];
  // Shoppers of "copper kettle" choose the last product shown (what the click recompute writes, then its notice).
  await deps
    .db('click_stats')
    .insert({ tenant_id: store.id, query: 'copper kettle', product_id: chosen, clicks: 30, searches: 30, attractiveness: 0.9, examinations: 30 });
  await deps.notices.publish('signals', store.id);
  const rerankOf = async () =>
    (await h.api.call('POST', '/v1/search', { key: token, body: { q: 'copper kettle', debug: true } })).body.debug?.steps.find(
      (s: { step: string }) => s.step === 'rerank',
    );
  // The old (empty) statistics answer until the reload the notice started is in.
  await eventually(async () => (await rerankOf())?.clicked === 1);
  const shopper = () => h.api.call('POST', '/v1/search', { key: store.key, body: { q: 'copper kettle' } });
  qdrant.fault.status = 503;
  let failed;
  let traced;
  try {
    failed = await shopper();
    traced = await rerankOf();
  } finally {
    qdrant.fault.status = 0;
  }
  t.equal(failed.status, 200, JSON.stringify(failed.body).slice(0, 300));
  t.equal(failed.body.ids[0], chosen, `the chosen product first: ${failed.body.ids}`);
  t.match(traced, { reason: 'vector store failed', clicked: 1 });
  const back = await shopper();
  t.equal(back.headers.get('x-search-cache'), 'miss', 'the answer without click feedback was not cached');
  t.equal(back.body.ids[0], chosen);
  t.equal((await shopper()).headers.get('x-search-cache'), 'hit');
});
