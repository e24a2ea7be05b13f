import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';

/** Hybrid search with an OpenAI-compatible embedder that stops answering: the search answers lexically, never 500. */

// Every embeddings call is refused with 429 once the fake is switched to rate_limit (the SDK's retries included).
const fake = await startFakeOpenAi({ rateLimited: 1_000_000 });
const { h } = await setupWithWorkers({ EMBEDDER: 'openai', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
t.teardown(() => fake.close());
const deps = h.api.deps;
const { id: tenantId, key } = await h.tenant('embed outage');
const products = [
  ...['Steel kettle', 'Glass kettle', 'Travel kettle'].map((name, i) => ({ id: `k${i}`, name: { en: name }, price: 20 + i, currency: 'USD' })),
  ...Array.from({ length: 10 }, (_, i) => ({ id: `m${i}`, name: { en: `Coffee mug ${i}` }, price: 5 + i, currency: 'USD' })),
];
if ((await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products } })).status !== 200) throw new Error('load failed');
await eventually(async () => (await deps.vectors.count(tenantId)) === products.length, 60_000, 100);
const session = (await h.api.call('POST', '/v1/sessions', { key, body: {} })).body.token as string;
const search = (q: string, hybrid: boolean) =>
  h.api.call('POST', '/v1/search', { key: session, body: { q, debug: true, config_override: { hybrid_search: hybrid } } });
const hybridStep = (body: { debug: { steps: Array<{ step: string }> } }) => body.debug.steps.find((s) => s.step === 'hybrid') as Record<string, unknown>;

t.test('the provider answering: hybrid search embeds the query', async (t) => {
  const res = await eventually(async () => {
    const r = await search('kettle', true);
    return r.status === 200 && r.body.total > 0 ? r : null;
  }, 20_000);
  t.ok((hybridStep(res.body).candidates as number) > 0, JSON.stringify(hybridStep(res.body)));
});

t.test('the provider refusing every call: the same search answers with the lexical results', async (t) => {
  fake.mode = 'rate_limit';
  const lexical = await search('travel kettle', false);
  t.equal(lexical.status, 200);
  const res = await search('travel kettle', true);
  t.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  t.same(res.body.ids, lexical.body.ids, 'the lexical answer');
  t.ok(lexical.body.ids.includes('k2'), `${lexical.body.ids}`);
  t.ok(fake.rateLimitedCount > 0, 'the embedder was asked and refused');
});
