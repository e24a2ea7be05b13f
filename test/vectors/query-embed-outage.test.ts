import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';
import { OpenAiEmbedderSource } from '../../shared/engines/embedder/openai.embedder.js';
import { QueryVectors } from '../../shared/vectors/index.js';

// What the pipelines' embedder is made with (create-embedder.ts): a 30 s timeout and 3 retries.
const OPTIONS = { apiKey: 'sk-test', model: 'text-embedding-3-small', batch: 128, maxRetries: 3, timeoutMs: 30_000, pricePerMtok: 0 };

/**
 * Hybrid search with an OpenAI-compatible embedder that refuses or stops answering: the search
 * answers lexically, never 500, after one provider call (no retries on the search path), and a
 * call with no answer is abandoned at the query-embedding deadline (QUERY_EMBED_TIMEOUT_MS).
 */

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
const embedCalls = () => fake.requests.filter((r) => 'input' in r).length;

/** The promise's value, or null if none came within `ms`: the test's own generous bound, not a timing claim. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

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
  const asked = embedCalls();
  const res = await search('travel kettle', true);
  t.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  t.same(res.body.ids, lexical.body.ids, 'the lexical answer');
  t.ok(lexical.body.ids.includes('k2'), `${lexical.body.ids}`);
  t.ok(fake.rateLimitedCount > 0, 'the embedder was asked and refused');
  t.equal(embedCalls() - asked, 1, 'one call: the search path does not retry');
  t.equal(hybridStep(res.body).reason, 'embedder failed', JSON.stringify(hybridStep(res.body)));
});

t.test('the provider accepting the call and never answering: the search answers lexically, the call abandoned', async (t) => {
  fake.mode = 'hang';
  const lexical = await search('glass kettle', false);
  t.equal(lexical.status, 200);
  t.ok(lexical.body.ids.includes('k1'), `${lexical.body.ids}`);
  const asked = embedCalls();
  const abandoned = fake.abandoned;
  // The old search path waited 30 s per attempt, 4 attempts.
  const res = await within(search('glass kettle', true), 15_000);
  if (!res) return void t.fail('no answer within 15 s: the search waited on the provider');
  t.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  t.same(res.body.ids, lexical.body.ids, 'the lexical answer');
  t.equal(hybridStep(res.body).reason, 'embed timeout', JSON.stringify(hybridStep(res.body)));
  t.equal(embedCalls() - asked, 1, 'one call, not retried');
  const closed = await eventually(async () => fake.abandoned > abandoned, 10_000).then(
    () => true,
    () => false,
  );
  t.ok(closed, 'the abandoned call closed its connection to the provider');
});

t.test('a process that has not asked the provider yet: its first query embedding is bounded too', async (t) => {
  fake.mode = 'hang';
  // A fresh embedder source learns the model's dimensions with a call of its own first: on the search path, within the same deadline.
  const fresh = new OpenAiEmbedderSource({ ...OPTIONS, baseUrl: fake.url, onCost: async () => undefined });
  const asked = embedCalls();
  const got = await within(new QueryVectors(deps.vectors, fresh, undefined, 200).embed(tenantId, 'steel kettle'), 15_000);
  t.same(got, { vector: null, reason: 'embed timeout' });
  t.equal(embedCalls() - asked, 1, 'one call, not retried');
});
