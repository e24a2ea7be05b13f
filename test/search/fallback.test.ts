import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

// When all words find fewer than a page, products with some of the words fill in after them,
// those with more of the words first, however often one word repeats.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const p = (id: string, name: string, description = '') => ({ id, name: { en: name }, description: { en: description }, price: 10, currency: 'USD' });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  p('f1', 'Walnut desk lamp'),
  p('f2', 'Lamp lamp shade lamp', 'lamp lamp lamp lamp lamp'),
  p('f3', 'Oak desk organiser'),
  p('f4', 'Steel bookshelf'),
  p('c1', 'Leather office chair'),
  p('c2', 'Mesh office chair'),
  p('c3', 'Fabric office chair'),
  p('c4', 'Folding chair'),
]);
const ids = async (q: string) => ((await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key })).body as { ids: string[] }).ids;

t.test('all-word matches first, then partial matches', async (t) => {
  const got = await ids('walnut desk lamp');
  t.equal(got[0], 'f1');
  t.same([...got.slice(1)].sort(), ['f2', 'f3'], 'each has one of the words; the bookshelf has none');
});

t.test('partial matches with more of the words rank first, however often one word repeats', async (t) => {
  const got = await ids('oak desk lamp');
  t.same([...got.slice(0, 2)].sort(), ['f1', 'f3'], 'two of the three words each');
  t.equal(got[2], 'f2', 'one word, five times');
});

t.test('a handful of all-word matches is filled in too: three office chairs, then the other chair', async (t) => {
  const got = await ids('office chair');
  t.same([...got.slice(0, 3)].sort(), ['c1', 'c2', 'c3']);
  t.same(got.slice(3), ['c4'], 'one of the words');
});
