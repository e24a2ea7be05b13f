import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';

const { h } = await setupWithWorkers();
const { id: tenantId, key } = await h.tenant();
const engine = h.api.deps.engine;

const products = Array.from({ length: 2500 }, (_, i) => ({
  id: `r${String(i).padStart(5, '0')}`,
  name: { en: `Reindex phone ${i}` },
  price: 100 + (i % 50),
  currency: 'USD',
  attributes: { Colour: i % 2 ? 'RED' : 'blue', 'Screen size': 6 },
}));
for (let i = 0; i < products.length; i += 1000) {
  const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: products.slice(i, i + 1000) } });
  if (res.status !== 200) throw new Error(`seeding failed: ${JSON.stringify(res.body)}`);
}
await eventually(async () => (await engine.search({ tenantId, tokens: ['phone'], offset: 0, limit: 1 })).total === 2500, 15_000);

const waitJob = (id: string) =>
  eventually(async () => {
    const job = (await h.api.call('GET', `/v1/jobs/${id}`, { key })).body;
    return ['succeeded', 'failed', 'canceled'].includes(job.status) ? job : null;
  }, 30_000);

t.test('GET /v1/attributes lists raw attributes with counts and samples', async (t) => {
  const res = await h.api.call('GET', '/v1/attributes', { key });
  t.equal(res.status, 200);
  const colour = res.body.find((a: { raw_name: string }) => a.raw_name === 'Colour');
  t.equal(colour.products, 2500);
  t.same([...colour.sample_values].sort(), ['RED', 'blue']);
  t.equal(colour.canonical_name, null);
  t.equal(colour.facet, false);
});

t.test('a mapping change reindexes with canonical facet names and normalized values', async (t) => {
  const put = await h.api.call('PUT', '/v1/attributes/mapping', {
    key,
    body: { items: [{ raw_name: 'Colour', canonical_name: 'color', value_map: { red: 'Red', BLUE: 'Blue' } }] },
  });
  t.equal(put.status, 200);
  t.equal(put.body.items[0].facet, true);
  const jobId = put.headers.get('x-job-id')!;
  t.ok(jobId);
  const job = await waitJob(jobId);
  t.equal(job.status, 'succeeded');
  t.equal(job.progress, 1);
  const res = await engine.search({ tenantId, tokens: ['phone'], offset: 0, limit: 1, facets: ['color'], filters: { color: ['Red'] } });
  t.equal(res.total, 1250);
  t.same(
    res.facets.color,
    [
      { value: 'Blue', count: 1250 },
      { value: 'Red', count: 1250 },
    ],
    'disjunctive: the colour filter does not narrow colour counts',
  );
  const attrs = (await h.api.call('GET', '/v1/attributes', { key })).body;
  t.equal(attrs.find((a: { raw_name: string }) => a.raw_name === 'Colour').canonical_name, 'color');
  const bad = await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: [{ raw_name: 'x', canonical_name: 'c'.repeat(101) }] } });
  t.equal(bad.status, 400);
});

t.test('reindex: searches never fail while it runs, a second request joins it', async (t) => {
  const first = await h.api.call('POST', '/v1/reindex', { key, body: { mode: 'full', reason: 'test' } });
  t.equal(first.status, 202);
  t.equal(first.body.job.kind, 'reindex');
  const second = await h.api.call('POST', '/v1/reindex', { key, body: {} });
  t.equal(second.body.job.id, first.body.job.id, 'joined the live job');
  let queries = 0;
  let failed = 0;
  let wrongTotal = 0;
  let finished = false;
  const load = (async () => {
    while (!finished) {
      queries++;
      try {
        const r = await engine.search({ tenantId, tokens: ['phone'], offset: 0, limit: 5 });
        if (r.total !== 2500) wrongTotal++;
      } catch {
        failed++;
      }
    }
  })();
  const job = await waitJob(first.body.job.id);
  finished = true;
  await load;
  t.equal(job.status, 'succeeded');
  t.ok(queries > 0);
  t.equal(failed, 0, `no failed engine queries out of ${queries}`);
  t.equal(wrongTotal, 0, 'every query saw the whole catalog');
  const gens = await h.api.deps.db('search_docs').where({ tenant_id: tenantId }).distinct('generation');
  t.equal(gens.length, 1, 'the old generation is dropped');
  const third = await h.api.call('POST', '/v1/reindex', { key, body: { mode: 'settings_only' } });
  t.not(third.body.job.id, first.body.job.id, 'a finished job is not joined');
  await waitJob(third.body.job.id);
});
