import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';

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
const ids = searchIds(h, key);

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

t.test('more strong matches than FEW_STRONG but fewer than a page: partial matches still fill the page, after them', async (t) => {
  const other = await h.tenant();
  await loadProducts(h, other.key, other.id, [
    ...[1, 2, 3, 4, 5, 6].map((i) => p(`s${i}`, `Scented candle ${i}`)),
    p('u1', 'Beeswax candle'),
    p('u2', 'Candle holder'),
    ...Array.from({ length: 30 }, (_, i) => p(`x${i}`, `Ceramic bowl ${i}`)),
  ]);
  const body = (await h.api.call('GET', `/v1/search?q=${encodeURIComponent('scented candle')}`, { key: other.key })).body as { ids: string[]; total: number };
  t.same(body.ids.slice(0, 6).sort(), ['s1', 's2', 's3', 's4', 's5', 's6'], 'every word first');
  t.same(body.ids.slice(6).sort(), ['u1', 'u2'], 'then the products with one of the words');
  t.equal(body.total, 8);
});

t.test('all words in descriptions only are a weak match: a few strong ones call for the fallback, and the weak ones go below', async (t) => {
  const other = await h.tenant();
  await loadProducts(h, other.key, other.id, [
    p('e1', 'External CD drive'),
    p('e2', 'External DVD drive'),
    p('e3', 'Portable CD player'),
    ...[1, 2, 3, 4, 5].map((i) => p(`w${i}`, `Laser printer ${i}`, 'Prints photos and documents from an external CD drive or a memory card')),
  ]);
  const body = (await h.api.call('GET', `/v1/search?q=${encodeURIComponent('external cd drive')}`, { key: other.key })).body as {
    ids: string[];
    total: number;
  };
  t.equal(body.ids[0], 'e1', 'every word in the name');
  t.same(body.ids.slice(1, 3), ['e2', 'e3'], 'two, then one of the words in the name, before mentions in descriptions');
  t.same(body.ids.slice(3).sort(), ['w1', 'w2', 'w3', 'w4', 'w5']);
  t.equal(body.total, 8);
});

t.test('matching any word, a word in a tenth of the products (and 50) makes no match alone', async (t) => {
  const other = await h.tenant();
  await loadProducts(h, other.key, other.id, [
    p('k1', 'Black keyboard'),
    p('k2', 'Wireless keyboard'),
    ...Array.from({ length: 50 }, (_, i) => p(`b${i}`, `Black laser printer ${i}`)),
    ...Array.from({ length: 20 }, (_, i) => p(`d${i}`, `Oak desk ${i}`)),
  ]);
  const body = (await h.api.call('GET', `/v1/search?q=${encodeURIComponent('keyboard black')}`, { key: other.key })).body as { ids: string[]; total: number };
  t.same(body.ids, ['k1', 'k2'], 'the keyboards; "black" alone finds nothing');
  t.equal(body.total, 2);
});
