import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { Vocabulary } from '../../shared/search/vocabulary.js';
import { VocabularyBuilder } from '../../shared/search/vocabulary-builder.js';
import { toStored } from '../../shared/catalog/canonical.js';
import { normalizeText } from '../../shared/text/normalize.js';

// The search path's vocabulary (known words, typo corrections) lives in each API process and
// follows catalog changes through the vocabulary-changed notice, without a restart.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });

const p = (id: string, name: string) => ({ id, name: { en: name }, brand: 'Zoo', price: 10, currency: 'USD' });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [p('w1', 'Walrus kettle'), p('w2', 'Walrus teapot')]);

type Body = { ids: string[]; did_you_mean: string | null };
const search = async (q: string, api = h.api) => (await api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key })).body as Body;

t.test('the vocabulary keeps the number of products its frequencies were counted over; common words', async (t) => {
  const { terms, products } = await h.api.deps.repos.vocabulary.terms(tenantId);
  t.equal(products, 2);
  t.equal(terms.get('walrus'), 2);
  t.notOk(terms.has(''), 'the count is not a word');
  const vocab = new Vocabulary(
    new Map([
      ['cable', 100],
      ['hdmi', 99],
      ['gold', 1],
    ]),
    1000,
  );
  t.ok(vocab.isCommon('cable'), 'in a tenth of the products');
  t.notOk(vocab.isCommon('hdmi'));
  t.notOk(new Vocabulary(new Map([['cable', 49]]), 100).isCommon('cable'), 'in fewer than 50 products');
  t.notOk(vocab.isCommon('unknown'));
  t.ok(vocab.isCommon('x'), 'shorter than any word counted');
  t.notOk(new Vocabulary(new Map([['cable', 100]])).isCommon('cable'), 'no count: nothing is common');
});

t.test('a transposed letter is corrected from the in-memory vocabulary', async (t) => {
  const body = await search('walrsu kettle');
  t.equal(body.did_you_mean, 'walrus kettle');
  t.equal(body.ids[0], 'w1', 'the product with both words first');
});

t.test('words a new product brings are known after the vocabulary refresh, in every API process', async (t) => {
  const second = await h.startApi();
  t.same((await search('narwhla')).ids, [], 'not in the catalog yet (vocabulary loaded in both processes)');
  t.same((await search('narwhla', second)).ids, []);
  const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: [p('n1', 'Narwhal night lamp')] } });
  t.equal(res.status, 200);
  const body = await waitFor(
    async () => {
      const b = await search('narwhla');
      return b.did_you_mean ? b : null;
    },
    20_000,
    'correction after the refresh',
  );
  t.equal(body.did_you_mean, 'narwhal');
  t.same(body.ids, ['n1']);
  await waitFor(async () => (await search('narwhla', second)).did_you_mean === 'narwhal', 20_000, 'the second process too');
});

t.test('a new brand becomes a brand intent after the vocabulary refresh, without a restart', async (t) => {
  const brandOf = async (q: string) =>
    ((await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key })).body as { query: { filters: { brand?: string[] } } }).query.filters.brand;
  t.equal(await brandOf('orcaware mug'), undefined, 'not a brand yet');
  const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: [{ ...p('b1', 'Orcaware travel mug'), brand: 'Orcaware' }] } });
  t.equal(res.status, 200);
  t.same(await waitFor(() => brandOf('orcaware mug'), 20_000, 'brand intent'), ['Orcaware']);
});

t.test('a new colour becomes a colour intent once the catalog changes, without a restart', async (t) => {
  const shop = await h.tenant('colours');
  await h.api.call('PUT', '/v1/attributes/mapping', { key: shop.key, body: { items: [{ raw_name: 'Colour', canonical_name: 'color', facet: true }] } });
  const mug = (id: string, colour: string) => ({ ...p(id, `${colour} enamel mug`), attributes: { Colour: colour } });
  await loadProducts(h, shop.key, shop.id, [mug('c1', 'Black')]);
  const colourOf = async (q: string) =>
    ((await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key: shop.key })).body as { query: { filters: { color?: string[] } } }).query.filters
      .color;
  t.same(await colourOf('black mug'), ['Black']);
  t.equal(await colourOf('green mug'), undefined, 'no green product yet');
  t.equal((await h.api.call('POST', '/v1/products/batch', { key: shop.key, body: { upsert: [mug('c2', 'Green')] } })).status, 200);
  t.same(await waitFor(() => colourOf('green mug'), 20_000, 'colour intent'), ['Green']);
});

t.test("tenant isolation: another tenant's words are never corrections", async (t) => {
  const other = await h.tenant('other');
  await loadProducts(h, other.key, other.id, [p('o1', 'Pangolin backpack')]);
  const body = await search('pangolni');
  t.equal(body.did_you_mean, null);
  t.same(body.ids, []);
});

const described = (id: string, name: string, description: Record<string, string>) =>
  toStored({ id, name: { en: name }, description, price: 10, currency: 'USD', in_stock: true, visible: true });

t.test('description words no other field has are kept apart: from two products on, the most frequent up to the cap', async (t) => {
  const b = new VocabularyBuilder();
  b.add(described('a', 'Sony wireless headphones', { en: 'True wireless earbuds, deep bass, 30 hours.' }));
  b.add(described('b', 'Jabra sport headphones', { en: 'Sport earbuds with a secure fit and bass boost.' }));
  b.add(described('c', 'Jabra speaker', { en: 'A woofer that fills the room. Wireless, with deep bass.' }));
  const words = b.describedTerms();
  t.equal(words.get('earbuds'), 2, 'in two descriptions and no name');
  t.equal(words.get('bass'), 3, 'counted once per product');
  t.notOk(words.has('woofer'), 'a word in one description only is not used');
  t.notOk(words.has('wireless'), 'a name word is in the vocabulary, not among the description words');
  t.notOk(b.terms.has('earbuds'), 'and a description word is no vocabulary word');
  t.notOk(words.has('30'), 'numbers are never corrected to');
  t.same([...b.describedTerms(2).keys()], ['bass', 'deep'], 'the cap keeps the most frequent (ties by the word)');
  t.equal(b.describedTerms(1_000, 3).size, 1, 'a higher threshold: only "bass" is in three descriptions');
});

t.test('Arabic descriptions are read as normalized, in every language of the product', async (t) => {
  const b = new VocabularyBuilder();
  const ar = (id: string) =>
    toStored({
      id,
      name: { ar: 'قميص قطن', en: 'Cotton shirt' },
      description: { ar: 'قماش ناعم مريح', en: 'Soft breathable fabric' },
      price: 10,
      currency: 'USD',
      in_stock: true,
      visible: true,
    });
  b.add(ar('a'));
  b.add(ar('b'));
  const words = b.describedTerms();
  t.equal(words.get(normalizeText('مريح')), 2);
  t.equal(words.get('breathable'), 2);
  t.notOk(words.has(normalizeText('قطن')), 'a name word');
  const v = new Vocabulary(b.terms, b.products, b.heads, b.nameWords, b.openings, new Map(), words);
  t.equal(v.descriptionCorrection(normalizeText('مرحي')), normalizeText('مريح'), 'two letters swapped');
});

t.test("a misspelled word whose right spelling only the store's descriptions have finds those products", async (t) => {
  const shop = await h.tenant('described');
  const d = (id: string, name: string, description: string) => ({ ...p(id, name), description: { en: description } });
  await loadProducts(h, shop.key, shop.id, [
    d('e1', 'Sony wireless headphones', 'True wireless earbuds with deep bass.'),
    d('e2', 'Jabra sport headphones', 'Sport earbuds with a secure fit.'),
    d('e3', 'Jabra speaker', 'A woofer that fills the room.'),
  ]);
  const counts = await waitFor(
    async () => {
      const v = await h.api.deps.repos.vocabulary.terms(shop.id);
      return v.described.has('earbuds') ? v : null;
    },
    20_000,
    'description words stored',
  );
  t.equal(counts.described.get('earbuds'), 2);
  t.notOk(counts.terms.has('earbuds'), 'kept apart from the vocabulary');
  t.notOk(counts.described.has('woofer'), 'one description only');
  const body = await waitFor(
    async () => {
      const b = (await h.api.call('GET', '/v1/search?q=earbus', { key: shop.key })).body as Body;
      return b.ids.length ? b : null;
    },
    20_000,
    'found after the refresh',
  );
  t.same(body.ids.sort(), ['e1', 'e2']);
  t.equal(body.did_you_mean, 'earbuds');
  t.same((await h.api.call('GET', '/v1/search?q=wofer', { key: shop.key })).body.ids, [], 'a word in one description is no correction');
});
