import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// A new attribute mapping reaches every API process's search context when the reindex it
// started swaps in, not after the context's safety-net refresh (minutes).
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const p = (id: string, name: string, material: string) => ({ id, name: { en: name }, price: 10, currency: 'USD', attributes: { Material: material } });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [p('m1', 'Linen shirt', 'Linen'), p('m2', 'Cotton shirt', 'Cotton')]);
const second = await h.startApi();
const filtered = (api = h.api) => api.call('GET', '/v1/search?q=shirt&filter[material]=Cotton', { key });

t.test('a mapped facet becomes a filter in every process once its reindex serves', async (t) => {
  for (const api of [h.api, second]) t.equal((await filtered(api)).body.error?.code, 'unknown_filter', 'not mapped yet (context loaded)');
  const put = await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: [{ raw_name: 'Material', canonical_name: 'material', facet: true }] } });
  t.equal(put.status, 200);
  const jobId = put.headers.get('x-job-id')!;
  await waitFor(async () => (await h.api.call('GET', `/v1/jobs/${jobId}`, { key })).body.status === 'succeeded', 20_000, 'reindex');
  for (const [name, api] of [
    ['first', h.api],
    ['second', second],
  ] as const) {
    const res = await waitFor(
      async () => {
        const r = await filtered(api);
        return r.status === 200 ? r : null;
      },
      5_000,
      `${name} process accepts the filter`,
    );
    t.same(res.body.ids, ['m2'], `${name} process filters by the new facet`);
    const facet = res.body.facets.find((f: { name: string }) => f.name === 'material');
    t.same(
      facet?.buckets.map((b: { value: string; count: number }) => [b.value, b.count]).sort(),
      [
        ['Cotton', 1],
        ['Linen', 1],
      ],
      'and counts it (disjunctive)',
    );
  }
});
