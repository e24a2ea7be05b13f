import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

// A category's label is what its products say of it, in every language any of them gives.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
const dress = (id: string, path: Array<Record<string, string>>, extra: Record<string, unknown> = {}) => ({
  id,
  name: { en: `Evening dress ${id}` },
  price: 100,
  currency: 'SAR',
  categories: [{ id: 'dresses', path }],
  ...extra,
});
const labelOf = async (value: string) => {
  const res = await h.api.call('GET', '/v1/search?q=dress&facets=category_tree', { key });
  const tree = res.body.facets.find((f: { name: string }) => f.name === 'category_tree');
  return tree.buckets.find((b: { value: string }) => b.value === value)?.label;
};

t.test('a product naming a category in one language never drops its other languages', async (t) => {
  await loadProducts(h, key, tenantId, [
    dress('d1', [
      { en: 'Fashion', ar: 'أزياء' },
      { en: 'Dresses', ar: 'فساتين' },
    ]),
  ]);
  t.same(await labelOf('lvl:fashion>dresses'), { en: 'Dresses', ar: 'فساتين' });
  await loadProducts(h, key, tenantId, [dress('d2', [{ en: 'Fashion' }, { en: 'Dresses' }], { visible: false })]);
  t.same(await labelOf('lvl:fashion>dresses'), { en: 'Dresses', ar: 'فساتين' }, 'an English-only (hidden) product keeps the Arabic label');
  await loadProducts(h, key, tenantId, [dress('d3', [{ en: 'Fashion' }, { en: 'Dresses', fr: 'Robes' }])]);
  await eventually(async () => (await labelOf('lvl:fashion>dresses'))?.fr === 'Robes', 10_000);
  t.same(await labelOf('lvl:fashion>dresses'), { en: 'Dresses', ar: 'فساتين', fr: 'Robes' }, 'a new language is added');
});
