import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';

const fake = await startFakeOpenAi();
t.teardown(() => fake.close());
const { h } = await setupWithWorkers({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', VOCAB_DEBOUNCE_MS: '200' });
const shop = await h.tenant();
const call = (method: string, path: string, body?: unknown) => h.api.call(method, path, { key: shop.key, body });

await loadProducts(h, shop.key, shop.id, [
  {
    id: 'w1',
    name: { en: "Men's wrist watch with leather strap" },
    brand: 'Casio',
    price: 50,
    currency: 'USD',
    categories: [{ id: 'c1', path: [{ en: 'Watches' }] }],
  },
  { id: 't1', name: { en: 'Wooden coffee table' }, price: 120, currency: 'USD' },
  { id: 'b1', name: { en: 'Water bottle 750 ml', ar: 'زجاجة ماء' }, price: 5, currency: 'USD' },
]);

const search = async (q: string, lang = 'auto') => (await call('GET', `/v1/search?q=${encodeURIComponent(q)}&lang=${lang}`)).body;

t.test('before a backfill an Arabic query finds nothing in an English-only catalog', async (t) => {
  t.same((await search('ساعة يد رجالي')).ids, []);
});

t.test('after a backfill, Arabic queries find English-only products through their Arabic translation', async (t) => {
  const res = await call('POST', '/v1/translate/backfill', { target_locale: 'ar', fields: ['name', 'category'] });
  t.equal(res.status, 202);
  const job = await waitFor(
    async () => {
      const j = (await call('GET', `/v1/jobs/${res.body.job.id}`)).body;
      return ['succeeded', 'failed'].includes(j.status) && j;
    },
    30_000,
    'backfill finished',
  );
  t.equal(job.status, 'succeeded', job.error ?? '');
  const hits = await waitFor(
    async () => {
      const r = await search('ساعة يد رجالي');
      return r.ids.length && r;
    },
    15_000,
    'arabic query finds the watch',
  );
  t.same(hits.ids, ['w1']);
  t.equal(hits.query.lang, 'ar');
  t.match(hits.hits[0].product.name, { en: "Men's wrist watch with leather strap", ar: /ساعة/ }, 'the card carries the Arabic name');
  t.same((await search('طاولة قهوة')).ids, ['t1'], 'another Arabic query');
  t.same((await search('ساعات')).ids, ['w1'], 'a translated category label is searchable');
});

t.test('an English query with lang=ar finds English names', async (t) => {
  const r = await search('coffee table', 'ar');
  t.equal(r.query.lang, 'ar');
  t.same(r.ids, ['t1']);
});

t.test("the query's own language is weighted first", async (t) => {
  // "zorba" is in both names: k1's English one (shorter, so it leads on text alone), k2's Arabic one.
  await loadProducts(h, shop.key, shop.id, [
    { id: 'k1', name: { en: 'Kettle Zorba' }, price: 9, currency: 'USD' },
    { id: 'k2', name: { en: 'Kettle', ar: 'غلاية كهربائية Zorba' }, price: 9, currency: 'USD' },
  ]);
  t.same((await search('zorba', 'ar')).ids, ['k2', 'k1'], 'Arabic: the product whose Arabic name matches first');
  t.same((await search('zorba', 'en')).ids, ['k1', 'k2'], 'English: the product whose English name matches first');
});

t.test('suggest completes translated category names and previews translated products', async (t) => {
  const s = await waitFor(
    async () => {
      const r = (await call('GET', `/v1/suggest?q=${encodeURIComponent('ساع')}`)).body;
      return r.suggestions.length && r;
    },
    40_000,
    'translated suggestion',
  );
  t.ok(
    s.suggestions.some((x: { text: string; kind: string }) => x.text === 'ساعات' && x.kind === 'category'),
    JSON.stringify(s.suggestions),
  );
  t.same(
    s.products.map((p: { id: string }) => p.id),
    ['w1'],
  );
  t.match(s.products[0].name, { ar: /ساعة/ });
});
