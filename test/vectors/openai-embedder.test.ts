import t from 'tap';
import { startFakeOpenAi, fakeEmbedding, EMBEDDING_DIMS } from '../helpers/openai-fake.js';
import { OpenAiEmbedderSource } from '../../shared/engines/embedder/openai.embedder.js';

const costs: Array<[string, number]> = [];
const source = (url: string, batch = 3) =>
  new OpenAiEmbedderSource({
    baseUrl: url,
    apiKey: 'sk-test',
    model: 'text-embedding-3-small',
    batch,
    maxRetries: 3,
    timeoutMs: 5000,
    pricePerMtok: 0.02,
    onCost: async (tenant, micros) => void costs.push([tenant, micros]),
  });

t.test('batches, order, unit vectors and cost per store', async (t) => {
  const fake = await startFakeOpenAi();
  t.teardown(() => fake.close());
  const s = source(fake.url);
  const e = await s.prepare('shop-a');
  t.equal(e.id, 'openai-text-embedding-3-small');
  t.equal(e.dims, EMBEDDING_DIMS, 'dimensions learned from the server');
  t.same(await s.byId('shop-a', 'catalog-v1'), null, 'another embedder id is not this one');
  costs.length = 0;
  fake.requests.length = 0;
  const texts = ['red dress', 'blue shirt', 'red dress long', 'usb cable', 'فستان أحمر', '', 'tv'];
  const vectors = await e.embed(texts);
  t.equal(vectors.length, texts.length);
  t.same(
    fake.requests.map((r) => r.input.length),
    [3, 3, 1],
    'three texts per call',
  );
  t.ok(fake.requests.every((r) => r.model === 'text-embedding-3-small' && r.encoding_format === 'float'));
  t.ok(vectors.every((v) => v.length === EMBEDDING_DIMS && (Math.abs(Math.hypot(...v) - 1) < 1e-5 || Math.hypot(...v) === 0)));
  const expected = texts.map((x) => {
    const v = fakeEmbedding(x.trim() ? x : ' ', EMBEDDING_DIMS) as number[];
    const n = Math.hypot(...v) || 1;
    return v.map((y) => y / n);
  });
  t.ok(
    vectors.every((v, i) => v.every((x, j) => Math.abs(x - expected[i][j]) < 1e-6)),
    "each vector is its own text's, in input order",
  );
  t.equal(costs.length, 3);
  t.ok(
    costs.every(([tenant, micros]) => tenant === 'shop-a' && micros > 0),
    'each call costed to the store',
  );
});

t.test('429s are retried with backoff and still counted once per answered call', async (t) => {
  const fake = await startFakeOpenAi({ mode: 'rate_limit', rateLimited: 2 });
  t.teardown(() => fake.close());
  costs.length = 0;
  const e = await source(fake.url).prepare('shop-b');
  t.equal(fake.rateLimitedCount, 2);
  t.equal(e.dims, EMBEDDING_DIMS);
  t.equal(costs.length, 1);
});

t.test('a server that keeps failing fails the call (the stage retries it)', async (t) => {
  const fake = await startFakeOpenAi({ mode: 'rate_limit', rateLimited: 100 });
  t.teardown(() => fake.close());
  await t.rejects(source(fake.url).prepare('shop-c'));
  t.equal(fake.rateLimitedCount, 4, 'the first try and three retries');
});
