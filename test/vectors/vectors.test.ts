import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { familyProducts } from './catalog.js';
import { subscribe as subscribeTo } from '../helpers/subscribe.js';
import { startEmbed } from '../../shared/vectors/index.js';
import { embedProducts } from '../../pipelines/vectors/embed-products.stage.js';

// The vocabulary is built at once (typo corrections and word weights), so every search below sees the store as it settles.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const deps = h.api.deps;
const a = await h.tenant('vectors a');
const b = await h.tenant('vectors b');
const products = familyProducts();

async function load(key: string, tenantId: string, items: unknown[]) {
  const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: items } });
  if (res.status !== 200) throw new Error(`load failed: ${res.status}`);
  await eventually(async () => (await deps.vectors.count(tenantId)) === items.length, 30_000, 100);
}
await load(a.key, a.id, products);
await load(b.key, b.id, familyProducts('b-').slice(0, 20));

t.test('an embed job trained the catalog embedder and filled the first generation', async (t) => {
  const jobs = await h.api.call('GET', '/v1/jobs?kind=embed', { key: a.key });
  t.equal(jobs.status, 200);
  t.ok(
    jobs.body.data.some((j: { status: string }) => j.status === 'succeeded'),
    'embed job succeeded',
  );
  const rows = await deps.db('product_vectors').where({ tenant_id: a.id }).select('embedder_id', 'dims', 'generation');
  t.equal(rows.length, products.length);
  t.ok(
    rows.every((r) => r.embedder_id === 'catalog-v1' && r.dims === 64 && r.generation === 1),
    'embedder id and dims on every vector',
  );
  t.same(jobs.body.vector_lag, { pending: 0, oldest_s: null }, 'no lag once embedded');
});

t.test('similar: nearest by vector in the same family, Arabic too', async (t) => {
  const res = await h.api.call('GET', '/v1/recommend?type=similar&product_id=phones-0-0&limit=5', { key: a.key });
  t.equal(res.status, 200);
  t.equal(res.body.source, 'vectors');
  t.equal(res.body.ids.length, 5);
  t.notOk(res.body.ids.includes('phones-0-0'), 'not the product itself');
  t.ok(res.body.ids.filter((id: string) => id.startsWith('phones-')).length >= 4, `mostly phones: ${res.body.ids}`);
  const ar = await h.api.call('GET', '/v1/recommend?type=similar&product_id=dress-0&limit=3', { key: a.key });
  t.ok(ar.body.ids.filter((id: string) => id.startsWith('dress-')).length >= 2, `Arabic dresses: ${ar.body.ids}`);
  t.equal(res.body.products[0].id, res.body.ids[0], 'cards in id order');
});

t.test('tenant isolation: another store never sees these vectors', async (t) => {
  const res = await h.api.call('GET', '/v1/recommend?type=similar&product_id=phones-0-0&limit=10', { key: b.key });
  t.equal(res.status, 200);
  t.ok(res.body.ids.length > 0);
  t.ok(
    res.body.ids.every((id: string) => id.startsWith('b-')),
    'only its own products',
  );
  t.not(res.body.source, 'vectors', 'no vector for a foreign id: fallback chain');
});

t.test('deletes reach the vector store', async (t) => {
  const del = await h.api.call('DELETE', '/v1/products/phones-1-0', { key: a.key });
  t.equal(del.status, 200);
  t.equal(
    await deps
      .db('product_vectors')
      .where({ tenant_id: a.id, product_id: 'phones-1-0' })
      .count()
      .first()
      .then((r: any) => Number(r.count)),
    0,
  );
  const batch = await h.api.call('POST', '/v1/products/batch', { key: a.key, body: { delete: ['phones-2-0'] } });
  t.equal(batch.status, 200);
  await eventually(async () => (await deps.vectors.count(a.id)) === products.length - 2, 20_000, 100);
  const res = await h.api.call('GET', '/v1/recommend?type=similar&product_id=phones-0-0&limit=20', { key: a.key });
  t.notOk(res.body.ids.includes('phones-1-0'));
  t.notOk(res.body.ids.includes('phones-2-0'));
});

t.test('a batch of a store without vectors reads no products to embed: it starts the embed job', async (t) => {
  const c = await h.tenant('vectors c');
  const items = familyProducts('c-').slice(0, 5);
  const { validateItems } = await import('../../shared/catalog/batch.js');
  await deps.repos.products.writeBatch(c.id, { upserts: validateItems({ upsert: items, replace_all: false, sync_complete: false }).upserts, deletes: [] });
  const reads: string[] = [];
  const onQuery = (q: { sql: string }) => {
    if (/\bfrom\s+"?products"?\b|products p\b/i.test(q.sql)) reads.push(q.sql);
  };
  deps.db.on('query', onQuery);
  const ids = items.map((p) => p.id);
  const out = await embedProducts.run({ data: { tenantId: c.id, batchId: 'b1', ids, deletes: [] }, deps } as never);
  deps.db.off('query', onQuery);
  t.same(out, { embedded: 0, removed: 0, served: false });
  t.same(reads, [], 'no product read, no search document built');
  const jobs = await h.api.call('GET', '/v1/jobs?kind=embed', { key: c.key });
  t.equal(jobs.body.data.length, 1, 'the embed job that fills the first generation');
  // The same products through the API: stored but not indexed yet, so they are indexed now; the job, waiting for the load to settle, then fills the vectors.
  t.equal((await h.api.call('POST', '/v1/products/batch', { key: c.key, body: { upsert: items } })).status, 200);
  await eventually(async () => (await deps.vectors.count(c.id)) === items.length, 30_000, 100);
});

t.test('a rebuild fills a new generation with a new model version and drops the old one', async (t) => {
  const { job } = await startEmbed(deps, a.id, 'test');
  const done = await eventually(
    async () => {
      const r = await h.api.call('GET', `/v1/jobs/${job.id}`, { key: a.key });
      return r.body.status === 'succeeded' ? r.body : null;
    },
    30_000,
    100,
  );
  t.equal(done.progress, 1);
  const gens = await deps.vectors.generations(a.id);
  t.equal(gens.active?.generation, 2);
  t.equal(gens.active?.embedderId, 'catalog-v2');
  t.equal(gens.building, null);
  const old = await deps.db('product_vectors').where({ tenant_id: a.id, generation: 1 }).count().first();
  t.equal(Number((old as any).count), 0, 'old generation dropped');
  const res = await h.api.call('GET', '/v1/recommend?type=similar&product_id=laptops-0-0&limit=5', { key: a.key });
  t.equal(res.body.source, 'vectors');
  t.ok(res.body.ids.filter((id: string) => id.startsWith('laptops-')).length >= 4, `${res.body.ids}`);
});

t.test('hybrid search: zero-result rescue and fusion, each step in the trace', async (t) => {
  const ses = (await h.api.call('POST', '/v1/sessions', { key: a.key, body: {} })).body.token;
  // With the vocabulary known, a typo one or two edits away is corrected and found lexically: the rescue is for what no correction reaches.
  const corrected = await eventually(
    async () => {
      const r = await h.api.call('POST', '/v1/search', { key: ses, body: { q: 'smartphonez', debug: true } });
      return r.body.total > 0 ? r.body : null;
    },
    30_000,
    100,
  );
  t.ok(
    corrected.ids.every((id: string) => id.startsWith('phones-')),
    `smartphonez: corrected, found lexically: ${corrected.ids}`,
  );
  const off = await h.api.call('POST', '/v1/search', { key: a.key, body: { q: 'espreso machin', debug: true } });
  const on = await h.api.call('POST', '/v1/search', { key: ses, body: { q: 'espreso machin', debug: true, config_override: { hybrid_search: true } } });
  t.equal(on.status, 200, JSON.stringify(on.body).slice(0, 300));
  const steps = on.body.debug.steps.map((s: { step: string }) => s.step);
  t.ok(steps.includes('hybrid') && steps.includes('rerank'), `${steps}`);
  const hy = on.body.debug.steps.find((s: { step: string }) => s.step === 'hybrid');
  if (off.body.total === 0) t.ok(hy.rescued, 'zero-result query rescued by vectors');
  for (const [q, family] of [
    ['espressomachines', 'coffee-1-'],
    ['coffeegrinderz', 'coffee-2-'],
    ['smartfonez 5gg', 'phones-'],
  ]) {
    const o = await h.api.call('POST', '/v1/search', { key: ses, body: { q, debug: true } });
    const n = await h.api.call('POST', '/v1/search', { key: ses, body: { q, debug: true, config_override: { hybrid_search: true } } });
    t.equal(o.body.total, 0, `${q}: no lexical match`);
    t.ok(n.body.debug.steps.find((x: { step: string }) => x.step === 'hybrid').rescued, `${q}: rescued by the vector side`);
    t.ok(n.body.ids.length > 0 && n.body.ids.every((id: string) => id.startsWith(family)), `${q}: ${n.body.ids}`);
  }
  t.ok(
    on.body.ids.slice(0, 3).every((id: string) => id.startsWith('coffee-')),
    `coffee first: ${on.body.ids}`,
  );
  // Only the any-word relaxation matched: its order is kept, the vector side only fills behind it.
  const relaxedOff = await h.api.call('POST', '/v1/search', { key: ses, body: { q: 'smartphone grinder', per_page: 50, debug: true } });
  const relaxedOn = await h.api.call('POST', '/v1/search', {
    key: ses,
    body: { q: 'smartphone grinder', per_page: 50, debug: true, config_override: { hybrid_search: true } },
  });
  t.equal(relaxedOff.body.debug.steps.find((s: { step: string }) => s.step === 'fallback').relaxed, true, 'no product has both words');
  t.same(relaxedOn.body.ids.slice(0, relaxedOff.body.ids.length), relaxedOff.body.ids, 'the relaxation keeps its order');
  const fused = await h.api.call('POST', '/v1/search', { key: ses, body: { q: 'smartphone', debug: true, config_override: { hybrid_search: true } } });
  const step = fused.body.debug.steps.find((s: { step: string }) => s.step === 'hybrid');
  t.ok(step.candidates > 0 && step.fused > 0, JSON.stringify(step));
  t.ok(fused.body.ids.every((id: string) => !id.startsWith('b-')));
  const filtered = await h.api.call('POST', '/v1/search', {
    key: ses,
    body: { q: 'espreso machin', filters: { brand: ['Philips'] }, config_override: { hybrid_search: true } },
  });
  t.ok(
    filtered.body.hits.every((x: { product: { brand: string } }) => x.product.brand === 'Philips'),
    'filters apply to vector candidates',
  );
});

t.test('hybrid_search is a plan feature: a store whose plan lacks it searches lexically', async (t) => {
  const subscribe = (planCode: string) => subscribeTo(deps, a.id, planCode);

  const ses = (await h.api.call('POST', '/v1/sessions', { key: a.key, body: {} })).body.token;
  const hybridStep = async () => {
    const res = await h.api.call('POST', '/v1/search', { key: ses, body: { q: 'espressomachines', debug: true, config_override: { hybrid_search: true } } });
    t.equal(res.status, 200);
    return { ids: res.body.ids as string[], step: res.body.debug.steps.find((s: { step: string }) => s.step === 'hybrid') };
  };
  await subscribe('starter');
  const starter = await eventually(async () => {
    const r = await hybridStep();
    return r.step.reason === 'not in plan' ? r : null;
  });
  t.equal(starter.step.rescued, false, 'starter (no hybrid_search): the vector side is not asked');
  t.same(starter.ids, [], 'no lexical match, no rescue');
  await subscribe('growth');
  const growth = await eventually(async () => {
    const r = await hybridStep();
    return r.step.rescued ? r : null;
  });
  t.ok(growth.ids.length > 0 && growth.ids.every((id) => id.startsWith('coffee-1-')), `growth (hybrid_search): rescued ${growth.ids}`);
  await subscribe('enterprise');
});
