import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

// Arabic store text as merchants write it (the article, tashkeel, Arabic punctuation and digits) through search and suggest.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
const cat = (id: string, en: string, ar: string) => [{ id, path: [{ en, ar }] }];
const p = (id: string, name: Record<string, string>, extra: Record<string, unknown> = {}) => ({ id, name, price: 100, currency: 'SAR', ...extra });
await loadProducts(h, key, tenantId, [
  p('sh1', { ar: 'قميص قطن رجالي', en: 'Men cotton shirt' }, { categories: cat('shirts', 'Shirts', 'قمصان') }),
  p('ac1', { ar: 'مكيّف سبليت ١٨٠٠٠ وحدة' }, { categories: cat('ac', 'Air conditioners', 'مكيفات') }),
  p('ac2', { ar: 'مكيّف سبليت ٢٤٠٠٠ وحدة' }, { categories: cat('ac', 'Air conditioners', 'مكيفات') }),
  p('ab1', { ar: 'عباية، سوداء مطرزة' }, { categories: cat('abayas', 'Abayas', 'عبايات') }),
  p('ab2', { ar: 'عباية، كحلية' }, { categories: cat('abayas', 'Abayas', 'عبايات') }),
  p('oil', { ar: 'زيت زيتون ٣٫٥ لتر', en: 'Extra virgin olive oil' }, { description: { en: 'Cold pressed from Jordan olives.' } }),
  p('scr', { en: 'Mineral lotion SPF-50' }, { categories: cat('suncare', 'Tsunami Sunscreens', 'واقيات شمس') }),
  p('ph1', { ar: 'هاتف نوكيا', en: 'Nokia phone' }),
  p('ph2', { ar: 'جوال سامسونج', en: 'Samsung mobile' }),
  p('ket', { ar: 'غلاية ماء كهربائية' }, { brand: 'الأناقة', categories: cat('home', 'Home appliances', 'الأجهزة المنزلية') }),
  p('de1', { en: 'Straße sign enamel' }),
  p('tr1', { en: 'İstanbul tulip mug' }),
]);

type Suggestion = { text: string; highlighted: string | null; kind: string };
const suggest = async (q: string) => {
  const res = await h.api.call('GET', `/v1/suggest?q=${encodeURIComponent(q)}`, { key });
  if (res.status !== 200) throw new Error(`suggest ${q}: ${res.status}`);
  return res.body as { suggestions: Suggestion[]; products: Array<{ id: string }> };
};
const search = async (q: string) => {
  const res = await h.api.call('POST', '/v1/search', { key, body: { q } });
  if (res.status !== 200) throw new Error(`search ${q}: ${res.status}`);
  return res.body as { ids: string[]; hits: Array<{ id: string; highlights: Record<string, string> }> };
};
const find = (s: { suggestions: Suggestion[] }, text: string) => s.suggestions.find((x) => x.text === text);

t.test('search-as-you-type: a last word typed with the article finds and marks the bare word the store writes', async (t) => {
  const typed = await search('القمي');
  t.same(typed.ids, ['sh1'], '"القمي" finds the shirt (قميص)');
  t.equal(typed.hits[0].highlights.name, '<em>قميص</em> قطن رجالي', 'and marks the word it completes');
});

t.test('search highlights mark the words the engine matched: sentence ends, Arabic decimals, code parts', async (t) => {
  const oil = await search('olives');
  t.same(oil.ids, ['oil']);
  t.equal(oil.hits[0].highlights.description, 'Cold pressed from Jordan <em>olives</em>.', 'the word before a full stop');
  t.equal((await search('لتر 3.5')).hits[0].highlights.name, 'زيت زيتون <em>٣٫٥</em> <em>لتر</em>', '3.5 written ٣٫٥');
  t.equal((await search('spf lotion')).hits[0]?.highlights.name, 'Mineral <em>lotion</em> <em>SPF-50</em>', 'a part of a code the engine matched');
});

t.test('suggest: a last word typed with the article completes and previews as the bare word', async (t) => {
  t.same(
    (await suggest('القمي')).products.map((x) => x.id),
    ['sh1'],
    '"القمي" previews the shirt (قميص)',
  );
  const ac = await suggest('المكي');
  t.equal(find(ac, 'مكيفات')?.highlighted, '<em>مكي</em>فات', `"المكي" completes the category مكيفات: ${JSON.stringify(ac.suggestions)}`);
  t.same([...ac.products.map((x) => x.id)].sort(), ['ac1', 'ac2'], 'and previews its products');
  t.ok(find(await suggest('والعباي'), 'عبايات'), '"والعباي" (and the abaya...) completes عبايات');
  t.same((await suggest('الق')).products, [], 'one letter after the article is no prefix of its own');
});

t.test('suggest completes a brand or category whose words carry the article from the bare word typed', async (t) => {
  const home = await suggest('منزلي');
  t.equal(find(home, 'الأجهزة المنزلية')?.highlighted, 'الأجهزة ال<em>منزلي</em>ة', `a later word: ${JSON.stringify(home.suggestions)}`);
  const brand = await suggest('أناق');
  t.equal(find(brand, 'الأناقة')?.highlighted, 'ال<em>أناق</em>ة', `the first word: ${JSON.stringify(brand.suggestions)}`);
  t.ok(find(await suggest('اجهز'), 'الأجهزة المنزلية'));
});

t.test("suggest marks the typed part in the store's own writing: tashkeel kept, at a word's start", async (t) => {
  const ac = await suggest('مكي');
  t.equal(find(ac, 'مكيّف سبليت')?.highlighted, '<em>مكيّ</em>ف سبليت', 'the shadda stays inside the mark');
  t.equal(find(ac, 'مكيفات')?.highlighted, '<em>مكي</em>فات');
  const sun = await suggest('sun');
  t.equal(find(sun, 'Tsunami Sunscreens')?.highlighted, 'Tsunami <em>Sun</em>screens', 'the word that matched, not "Tsunami"');
});

t.test('a name opening is shown without the Arabic comma that closes it', async (t) => {
  const abaya = await suggest('عباي');
  t.ok(find(abaya, 'عباية'), `عباية, not "عباية،": ${JSON.stringify(abaya.suggestions)}`);
  t.notOk(abaya.suggestions.some((s) => s.text.includes('،')));
});

t.test('a typo in a word typed with the article is corrected as the bare word the catalog holds', async (t) => {
  for (const q of ['القميض', 'والقميض']) {
    const res = await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key });
    t.same([res.body.ids, res.body.did_you_mean], [['sh1'], 'قميص'], `${q} finds the shirt, as قميض does`);
  }
  t.same(
    (await suggest('القميض')).products.map((x) => x.id),
    ['sh1'],
    'suggest previews it too',
  );
});

t.test('a synonym rule fires for its word with the article written onto it, both ways', async (t) => {
  const res = await h.api.call('POST', '/v1/synonyms', { key, body: { kind: 'equivalent', terms: ['هاتف', 'الجوال'] } });
  t.equal(res.status, 201);
  await eventually(async () => (await search('هاتف')).ids.length === 2, 10_000);
  for (const q of ['الهاتف', 'والهاتف', 'جوال', 'بالجوال']) t.same([...(await search(q)).ids].sort(), ['ph1', 'ph2'], q);
});

t.test('Latin case folding: German ß and Turkish dotless ı match as their capitals are typed', async (t) => {
  for (const q of ['strasse', 'STRASSE', 'Straße']) t.same((await search(q)).ids, ['de1'], q);
  const dotless = await h.api.call('GET', `/v1/search?q=${encodeURIComponent('ıstanbul')}`, { key });
  t.same([dotless.body.ids, dotless.body.did_you_mean], [['tr1'], null], 'ıstanbul is istanbul, no correction');
  const typo = await h.api.call('GET', '/v1/search?q=istanbol', { key });
  t.same([typo.body.ids, typo.body.did_you_mean], [['tr1'], 'istanbul'], 'did-you-mean without the dot İ lower-cases to');
});
