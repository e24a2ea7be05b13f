import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// Learned from the store's own titles: their average length (a match in a name shorter than the
// store's usual is more about the query's words), and apostrophes the shopper leaves out. Made-up products.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const p = (id: string, name: string, description = '') => ({ id, name: { en: name }, description: { en: description }, price: 10, currency: 'USD' });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  // Both kettles have "tea kettle" side by side in their names; the short name has a description.
  p('long', 'Acme Gooseneck Pour Over Brushed Stainless Steel Tea Kettle'),
  p(
    'short',
    'Acme Tea Kettle',
    'Boils water on any stove top in minutes and whistles loudly when it is ready; the wide handle stays cool, the lid lifts with one finger, and the enamel finish wipes clean after every use in a busy home',
  ),
  p('m1', 'Zeno Coffee Mug Blue'),
  p('m2', 'Zeno Coffee Mug Red'),
  p('j1', "Dunmore Men's 505 Regular Fit Jeans"),
  p('j2', 'Dunmore 505 Jeans Rigid'),
  p('s1', "Kora Women's Canvas Sneakers"),
  p('l1', "Levi's Boys' Regular Fit Shorts"),
  p('l2', 'Levis Vintage Trucker Jacket'),
]);
const ids = searchIds(h, key);

t.test("the vocabulary learns the store's name length", async (t) => {
  const { products, nameWords } = await waitFor(
    async () => {
      const v = await h.api.deps.repos.vocabulary.terms(tenantId);
      return v.products === 9 ? v : null;
    },
    20_000,
    'the vocabulary counted every product',
  );
  t.equal(products, 9);
  t.equal(nameWords, 9 + 3 + 4 + 4 + 6 + 4 + 4 + 5 + 4, "every name's words, summed");
});

t.test('the shorter name ranks first among names holding the same words', async (t) => {
  const got = await waitFor(
    async () => {
      const r = await ids('tea kettle');
      return r[0] === 'short' ? r : null;
    },
    20_000,
    'the short name first once the store average is known',
  );
  t.same(got, ['short', 'long']);
});

t.test('a word typed without its apostrophe matches the possessive', async (t) => {
  // "levis" is a catalog word (the jacket), so it is taken as typed, and the plural rule keeps -is words whole.
  t.same(await ids('levis shorts'), ['l1', 'l2'], "levis: Levi's with every word, then the jacket with one");
  t.same(await ids('womens sneakers'), ['s1'], "womens: Women's, by its stem");
});
