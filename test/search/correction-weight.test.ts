import t from 'tap';
import { Vocabulary } from '../../shared/search/vocabulary.js';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

t.test('a correction to a word on one product is a third of a guess', async (t) => {
  const vocab = new Vocabulary(
    new Map([
      ['cartier', 1],
      ['longboard', 2],
      ['baby', 40],
    ]),
    1000,
  );
  t.equal(vocab.correctionConfidence('cartier'), 1 / 3, 'a word on one product: a third of a guess');
  t.equal(vocab.correctionConfidence('baby'), 1, 'a word on 40 products: sure');
  t.equal(vocab.correctionConfidence('longboard'), 1, 'from two products on: a full correction');
  t.equal(vocab.correctionConfidence('never-seen'), 0);
});

// Made-up products: no product is a "carrier"; one watch of the brand Cartier (a typo away from it), baby products,
// and watches and other goods beside them. A shopper asking for a "baby carrier" gets the baby products first, not the
// one product the correction's rare word finds.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const p = (id: string, name: string) => ({ id, name: { en: name }, price: 10, currency: 'USD' });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  p('cartier', 'Cartier W6701005 Analog Watch'),
  ...['Cotton Baby Towel', 'Baby Shower Cap', 'Baby Ankle Socks', 'Baby Bath Towel Set', 'Soft Baby Blanket', 'Baby Sling Wrap'].map((n, i) => p(`b${i}`, n)),
  ...Array.from({ length: 30 }, (_, i) => p(`w${i}`, `Sonata ${100 + i} Analog Watch`)),
  ...Array.from({ length: 30 }, (_, i) => p(`o${i}`, `Steel Water Bottle ${i + 1}`)),
]);
const ids = searchIds(h, key);
const search = async (q: string) => (await h.api.call('POST', '/v1/search', { key, body: { q, debug: true } })).body;
const plan = (body: { debug: { steps: Array<Record<string, any>> } }) => body.debug.steps.find((s) => s.step === 'plan')!;

t.test('a mistyped word corrected to a rare one does not outweigh the words typed as the store writes them', async (t) => {
  await waitFor(async () => ((await h.api.deps.repos.vocabulary.terms(tenantId)).terms.has('cartier') ? true : null), 20_000, 'vocabulary built');
  const res = await search('baby carrier');
  t.same(plan(res).corrections, [{ from: 'carrier', to: 'cartier' }], 'carrier is corrected to the one word the store has');
  const [baby, carrier] = plan(res).weights;
  t.ok(carrier < baby, `the guess weighs less than "baby" (${carrier} < ${baby}), though cartier is the rarer word`);
  const got = await ids('baby carrier');
  t.same(got.slice(0, 6).sort(), ['b0', 'b1', 'b2', 'b3', 'b4', 'b5'], `the baby products first: ${got.join()}`);
  t.ok(got.includes('cartier'), 'the Cartier watch still matches, after them');

  // A correction to a word the store carries on several products is sure.
  const sure = await search('babby towel');
  t.same(plan(sure).corrections, [{ from: 'babby', to: 'baby' }]);
  t.same((await ids('babby towel')).slice(0, 2).sort(), ['b0', 'b3'], 'the baby towels first');
  // One word: the guess is still the search.
  t.equal((await ids('cartir'))[0], 'cartier');
});

t.test("a correction from the store's descriptions alone weighs less than the words typed right and never outranks them", async (t) => {
  const shop = await h.tenant('described');
  const d = (id: string, name: string, description: string) => ({ ...p(id, name), description: { en: description } });
  await loadProducts(h, shop.key, shop.id, [
    d('sony-buds', 'Sony WF-1000 Wireless Headphones', 'True wireless earbuds with noise cancelling.'),
    d('jabra-buds', 'Jabra Elite Sport Headphones', 'Sport earbuds with a secure fit.'),
    d('sony-tv', 'Sony Bravia Television', 'A bright picture in any room.'),
    d('sony-radio', 'Sony Pocket Radio', 'AM and FM in your pocket.'),
    ...Array.from({ length: 20 }, (_, i) => d(`o${i}`, `Steel Water Bottle ${i + 1}`, 'Keeps drinks cold.')),
  ]);
  await waitFor(async () => ((await h.api.deps.repos.vocabulary.terms(shop.id)).described.has('earbuds') ? true : null), 20_000, 'description words stored');
  const body = (await h.api.call('POST', '/v1/search', { key: shop.key, body: { q: 'sony earbus', debug: true } })).body;
  t.same(plan(body).corrections, [{ from: 'earbus', to: 'earbuds' }], 'corrected to the word only descriptions have');
  const [sony, earbuds] = plan(body).weights;
  t.ok(earbuds <= sony, `the guess weighs no more than "sony" (${earbuds} <= ${sony}), though earbuds is the rarer word`);
  const got = (body as { ids: string[] }).ids;
  t.equal(got[0], 'sony-buds', `the product with both words first: ${got.join()}`);
  t.ok(got.indexOf('sony-tv') >= 0 && got.indexOf('jabra-buds') > got.indexOf('sony-tv'), 'a product naming "sony" before one only described with the guess');
  t.ok(got.indexOf('jabra-buds') > got.indexOf('sony-radio'), 'every product naming "sony" before it');
});
