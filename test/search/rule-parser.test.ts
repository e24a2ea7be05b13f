import t from 'tap';
import { normalizeText } from '../../shared/text/normalize.js';
import { COLOR_WORDS, parseRules, type ParsedRules, type RuleContext } from '../../shared/search/rule-parser.js';

// A tenant with a few brands (one multi-word, one Arabic) and a colour facet with four values.
const VALUES: Record<string, string> = { red: 'Red', black: 'Black', white: 'White', blue: 'Blue', gold: 'Gold' };
const colors = new Map<string, string>();
for (const [word, key] of COLOR_WORDS) if (VALUES[key]) colors.set(word, VALUES[key]);
const ctx: RuleContext = {
  brands: new Map([
    ['nike', 'Nike'],
    ['adidas', 'Adidas'],
    ['samsung', 'Samsung'],
    ['سامسونج', 'Samsung'],
    ['نايك', 'Nike'],
    ['tp link', 'TP-Link'],
    ['western digital', 'Western Digital'],
    ['apple', 'Apple'],
  ]),
  colors,
  colorFacet: 'color',
};
const noColours: RuleContext = { brands: ctx.brands, colors: new Map(), colorFacet: null };

// Queries arrive normalized, so every test goes through normalizeText first.
const parse = (q: string, c: RuleContext = ctx): ParsedRules => parseRules(normalizeText(q), c);
const price = (q: string) => parse(q).filters.price;

t.test('price maximum, English', async (t) => {
  for (const [q, lte] of [
    ['under 100', 100],
    ['below $50', 50],
    ['less than 100', 100],
    ['cheaper than 30', 30],
    ['up to 200', 200],
    ['max 100', 100],
    ['<100', 100],
    ['< 100', 100],
    ['100 or less', 100],
    ['under 2k', 2000],
    ['under 1.5k', 1500],
    ['under 1,000', 1000],
    ['below 99.5', 99.5],
  ] as const) {
    t.same(price(q), { lte }, q);
    t.equal(parse(q).rest, '', `${q}: nothing left`);
  }
  t.same(parse('under 100').fired, [{ rule: 'price_max', text: 'under 100' }]);
});

t.test('price maximum, Arabic (Arabic-Indic digits too)', async (t) => {
  for (const [q, lte] of [
    ['أقل من 100', 100],
    ['اقل من ١٠٠', 100],
    ['تحت ٢٠٠', 200],
    ['بأقل من 100', 100],
    ['حتى 300', 300],
    ['لا يزيد عن 100', 100],
    ['تحت ١٬٥٠٠', 1500],
    ['أقل من 2 ألف', 2000],
    ['100 أو أقل', 100],
  ] as const) {
    t.same(price(q), { lte }, q);
    t.equal(parse(q).rest, '', `${q}: nothing left`);
  }
  t.same(parse('تحت ٢٠٠').fired, [{ rule: 'price_max', text: 'تحت 200' }]);
});

t.test('currency words and symbols around the number are eaten', async (t) => {
  for (const q of [
    'under $100',
    'under 100$',
    'under 100 usd',
    'under 100 dollars',
    'under 100 sar',
    'under 100 riyal',
    'تحت 100 ريال',
    'تحت 100 ر.س',
    'under 100 aed',
    'أقل من 100 درهم',
    'أقل من 100 جنيه',
    'under 100 egp',
    'under 100 inr',
    'under rs 100',
    'under ₹100',
    'under £100',
    'under €100',
    'below 100 €',
    'تحت 100 ﷼',
  ]) {
    t.same(parse(`shoes ${q}`).filters.price, { lte: 100 }, q);
    t.equal(parse(`shoes ${q}`).rest, 'shoes', `${q}: currency gone from rest`);
  }
});

t.test('price minimum, English', async (t) => {
  for (const [q, gte] of [
    ['over 100', 100],
    ['above 50', 50],
    ['more than 100', 100],
    ['at least 100', 100],
    ['from 100', 100],
    ['100+', 100],
    ['$50+', 50],
    ['>500', 500],
    ['200 and up', 200],
    ['100 or more', 100],
  ] as const) {
    t.same(price(q), { gte }, q);
    t.equal(parse(q).rest, '', `${q}: nothing left`);
  }
  t.same(parse('watch over 100').fired, [{ rule: 'price_min', text: 'over 100' }]);
});

t.test('price minimum, Arabic', async (t) => {
  for (const [q, gte] of [
    ['أكثر من 100', 100],
    ['فوق 100', 100],
    ['أعلى من 100', 100],
    ['اعلي من 100', 100],
    ['من 100 فما فوق', 100],
    ['من ١٠٠ فما فوق', 100],
    ['100 وما فوق', 100],
    ['ابتداءً من 50', 50],
    ['لا يقل عن 300', 300],
  ] as const) {
    t.same(price(q), { gte }, q);
    t.equal(parse(q).rest, '', `${q}: nothing left`);
  }
});

t.test('price ranges', async (t) => {
  for (const q of [
    '100-200',
    '100 - 200',
    '100–200',
    'between 100 and 200',
    'from 100 to 200',
    '$100 to $200',
    '$100-$200',
    '100 to 200 sar',
    'من 100 إلى 200',
    'من 100 الى 200',
    'من ١٠٠ إلى ٢٠٠',
    'بين 100 و 200',
    'بين 100 و200',
    'ما بين 100 و 200 ريال',
    'between 200 and 100',
  ]) {
    t.same(price(q), { gte: 100, lte: 200 }, q);
    t.equal(parse(q).rest, '', `${q}: nothing left`);
  }
  t.same(price('1k-2k'), { gte: 1000, lte: 2000 });
  t.same(price('1-2k'), { gte: 1000, lte: 2000 });
  t.same(price('between 1,000 and 2,500'), { gte: 1000, lte: 2500 });
  t.same(parse('shoes 100-200').fired, [{ rule: 'price_range', text: '100-200' }]);
  // "from" followed by a range end is a range, never a minimum.
  t.same(
    parse('from 100 to 200').fired.map((f) => f.rule),
    ['price_range'],
  );
  // Minimum and maximum together narrow each other.
  t.same(price('over 100 under 300'), { gte: 100, lte: 300 });
  t.same(price('فوق 100 وتحت 300'), { gte: 100, lte: 300 });
  t.same(parse('bag over 100 and under 300'), {
    filters: { price: { gte: 100, lte: 300 } },
    sort: null,
    rest: 'bag',
    fired: [
      { rule: 'price_max', text: 'under 300' },
      { rule: 'price_min', text: 'over 100' },
    ],
  });
  t.equal(parse('شنطة فوق 100 و تحت 300').rest, 'شنطه');
});

t.test('numbers that belong to the product are not prices', async (t) => {
  for (const q of [
    'iphone 13',
    '65 inch tv',
    '2tb',
    '500gb',
    '1080p',
    'ssd 2 tb',
    'usb-c 3-pack',
    'iphone 15 pro max 256',
    'nike air max 90',
    'galaxy s24+',
    'iphone 15+',
    '18+',
    'up to 10 hours battery',
    'tv under 65 inch',
    'under 1.5 kg',
    'at least 8 gb ram',
    'more than 2 years warranty',
    'up to 50% off',
    'from 100 to 200 gb',
    'شاشة 55 بوصة',
    'تلفزيون اقل من 55 بوصة',
    'size 10-12',
    'camry 2018-2020',
    '200-100',
  ]) {
    t.equal(parse(q).filters.price, undefined, q);
    t.same(
      parse(q).fired.filter((f) => f.rule.startsWith('price')),
      [],
      `${q}: no price rule`,
    );
  }
  // A currency without a comparison word is not a filter, and stays in the text.
  t.same(parse('100 dollars'), { filters: {}, sort: null, rest: '100 dollars', fired: [] });
  t.same(parse('100 ريال'), { filters: {}, sort: null, rest: '100 ريال', fired: [] });
  // Spec numbers stay in the rest next to a real price.
  t.same(parse('iphone 13 under 3000 sar'), {
    filters: { price: { lte: 3000 } },
    sort: null,
    rest: 'iphone 13',
    fired: [{ rule: 'price_max', text: 'under 3000 sar' }],
  });
  t.equal(parse('samsung tv 55 inch under 2000').rest, 'tv 55 inch');
});

t.test('sort, English', async (t) => {
  for (const [q, sort] of [
    ['cheapest', 'price_asc'],
    ['lowest price', 'price_asc'],
    ['price low to high', 'price_asc'],
    ['price: low to high', 'price_asc'],
    ['most expensive', 'price_desc'],
    ['highest price', 'price_desc'],
    ['price high to low', 'price_desc'],
    ['newest', 'newest'],
    ['latest', 'newest'],
    ['new arrivals', 'newest'],
    ['best selling', 'popular'],
    ['best-selling', 'popular'],
    ['most popular', 'popular'],
    ['popular', 'popular'],
  ] as const) {
    t.equal(parse(`laptop ${q}`).sort, sort, q);
    t.equal(parse(`laptop ${q}`).rest, 'laptop', `${q}: rest`);
  }
  t.same(parse('cheapest laptop').fired, [{ rule: 'sort_price_asc', text: 'cheapest' }]);
  // Plain adjectives are product words.
  for (const q of ['cheap laptop', 'new laptop', 'expensive watch', 'new balance']) {
    t.equal(parse(q).sort, null, q);
    t.equal(parse(q).rest, normalizeText(q), `${q}: rest untouched`);
  }
  t.equal(parse('sort by newest').rest, '');
  t.equal(parse('the cheapest laptop').rest, 'laptop');
});

t.test('sort, Arabic', async (t) => {
  for (const [q, sort] of [
    ['الأرخص', 'price_asc'],
    ['ارخص', 'price_asc'],
    ['أرخص', 'price_asc'],
    ['من الأرخص إلى الأغلى', 'price_asc'],
    ['الأغلى', 'price_desc'],
    ['اغلى', 'price_desc'],
    ['الأعلى سعراً', 'price_desc'],
    ['من الأغلى إلى الأرخص', 'price_desc'],
    ['الأحدث', 'newest'],
    ['أحدث', 'newest'],
    ['الأكثر مبيعاً', 'popular'],
    ['الأكثر شعبية', 'popular'],
  ] as const) {
    t.equal(parse(`جوال ${q}`).sort, sort, q);
    t.equal(parse(`جوال ${q}`).rest, 'جوال', `${q}: rest`);
  }
  t.same(parse('أرخص جوال').fired, [{ rule: 'sort_price_asc', text: 'ارخص' }]);
  // "جديد" (new) is a product word; and "أكثر من" is a price, not the popular sort.
  t.equal(parse('جوال جديد').sort, null);
  t.same(parse('اكثر من 100'), { filters: { price: { gte: 100 } }, sort: null, rest: '', fired: [{ rule: 'price_min', text: 'اكثر من 100' }] });
});

t.test('brands: longest whole-word match, display value, removed from rest', async (t) => {
  t.same(parse('nike shoes'), { filters: { brand: ['Nike'] }, sort: null, rest: 'shoes', fired: [{ rule: 'brand', text: 'nike' }] });
  t.same(parse('western digital 2tb').filters, { brand: ['Western Digital'] });
  t.equal(parse('western digital 2tb').rest, '2tb');
  t.same(parse('tp link router').filters.brand, ['TP-Link']);
  t.same(parse('TP-Link router').filters.brand, ['TP-Link']);
  t.same(parse('nike or adidas').filters.brand, ['Nike', 'Adidas']);
  t.equal(parse('nike or adidas').rest, '');
  t.same(parse('حذاء نايك').filters.brand, ['Nike']);
  t.equal(parse('حذاء نايك').rest, 'حذاء');
  // Only whole words: "nikes" and "western" alone are not brands.
  t.same(parse('nikes').filters, {});
  t.same(parse('western boots').filters, {});
  // A brand alone leaves an empty rest (a browse of that brand).
  t.same(parse('samsung'), { filters: { brand: ['Samsung'] }, sort: null, rest: '', fired: [{ rule: 'brand', text: 'samsung' }] });
  // "for <brand>" is what the product fits, not who made it.
  t.same(parse('case for samsung').filters, {});
  t.equal(parse('case for samsung').rest, 'case for samsung');
});

t.test('a one-word brand most of whose word is something else in the store is read as the word', async (t) => {
  const store: RuleContext = {
    ...ctx,
    brands: new Map([...ctx.brands, ['coffee', 'Coffee']]),
    brandProducts: new Map([
      ['coffee', 3],
      ['nike', 40],
      ['western digital', 2],
    ]),
  };
  const words = new Map([
    ['coffee', 300],
    ['nike', 60],
    ['western', 90],
    ['digital', 500],
    ['mug', 250],
  ]);
  const coffee = parseRules(normalizeText('coffee mug'), store, words);
  t.same(coffee.filters, {}, '3 of the 300 products with the word are the brand Coffee: no brand filter');
  t.equal(coffee.rest, 'coffee mug');
  t.same(coffee.fired, [{ rule: 'word_not_brand', text: 'coffee' }]);
  t.same(parseRules(normalizeText('nike shoes'), store, words).filters, { brand: ['Nike'] }, '40 of 60: the brand');
  t.same(parseRules(normalizeText('brand coffee'), store, words).filters, { brand: ['Coffee'] }, 'named as a brand, it is one');
  t.same(
    parseRules(normalizeText('western digital 2tb'), store, words).filters,
    { brand: ['Western Digital'] },
    'brand names of several words are not in doubt',
  );
  t.same(parseRules(normalizeText('coffee mug'), store).filters, { brand: ['Coffee'] }, "without the store's word counts: the brand");
});

t.test('colours: English and Arabic forms, only with a colour facet', async (t) => {
  t.same(parse('red shoes'), { filters: { color: ['Red'] }, sort: null, rest: 'shoes', fired: [{ rule: 'color', text: 'red' }] });
  for (const q of ['حذاء احمر', 'حذاء أحمر', 'شنطة حمراء', 'الحذاء الأحمر']) t.same(parse(q).filters, { color: ['Red'] }, q);
  for (const [q, v] of [
    ['أسود', 'Black'],
    ['سوداء', 'Black'],
    ['ابيض', 'White'],
    ['بيضاء', 'White'],
    ['أزرق', 'Blue'],
    ['زرقاء', 'Blue'],
    ['ذهبية', 'Gold'],
  ] as const) {
    t.same(parse(`ساعة ${q}`).filters, { color: [v] }, q);
    t.equal(parse(`ساعة ${q}`).rest, 'ساعه', `${q}: rest`);
  }
  t.same(parse('black and white dress').filters, { color: ['Black', 'White'] });
  t.equal(parse('black and white dress').rest, 'dress');
  t.same(parse('فستان أحمر وأسود').filters, { color: ['Red', 'Black'] });
  t.equal(parse('فستان أحمر وأسود').rest, 'فستان');
  // Colours the tenant does not have stay in the text; no facet, no colour filter.
  t.same(parse('green shoes').filters, {});
  t.same(parse('red shoes', noColours), { filters: {}, sort: null, rest: 'red shoes', fired: [] });
});

t.test('COLOR_WORDS covers both genders, normalized', async (t) => {
  for (const [w, key] of [
    ['red', 'red'],
    ['أحمر', 'red'],
    ['حمراء', 'red'],
    ['أسود', 'black'],
    ['سوداء', 'black'],
    ['أبيض', 'white'],
    ['بيضاء', 'white'],
    ['أزرق', 'blue'],
    ['زرقاء', 'blue'],
    ['أخضر', 'green'],
    ['خضراء', 'green'],
    ['أصفر', 'yellow'],
    ['صفراء', 'yellow'],
    ['رمادي', 'grey'],
    ['gray', 'grey'],
    ['وردي', 'pink'],
    ['بني', 'brown'],
    ['بنفسجي', 'purple'],
    ['برتقالي', 'orange'],
    ['ذهبي', 'gold'],
    ['ذهبية', 'gold'],
    ['فضي', 'silver'],
    ['فضية', 'silver'],
    ['الأحمر', 'red'],
  ]) {
    t.equal(COLOR_WORDS.get(normalizeText(w)), key, w);
  }
  for (const k of COLOR_WORDS.keys()) t.equal(k, normalizeText(k), `${k} is stored normalized`);
});

t.test('connector words that only introduced a removed part are dropped', async (t) => {
  t.equal(parse('shoes in red').rest, 'shoes');
  t.equal(parse('laptop priced under 500').rest, 'laptop');
  t.equal(parse('laptop with price under 500').rest, 'laptop');
  t.equal(parse('حذاء لون احمر').rest, 'حذاء');
  t.equal(parse('حذاء باللون الأحمر').rest, 'حذاء');
  t.equal(parse('حذاء أحمر اللون').rest, 'حذاء');
  t.equal(parse('جوال بسعر أقل من 1000').rest, 'جوال');
  t.equal(parse('shoes for under 100').rest, 'shoes');
  t.equal(parse('shoes by nike').rest, 'shoes');
  // ...but not when they still belong to the text.
  t.equal(parse('case with stand under 100').rest, 'case with stand');
  t.equal(parse('shoes for running in red').rest, 'shoes for running');
});

t.test('combined queries', async (t) => {
  t.same(parse('red nike shoes under 100 cheapest'), {
    filters: { price: { lte: 100 }, brand: ['Nike'], color: ['Red'] },
    sort: 'price_asc',
    rest: 'shoes',
    fired: [
      { rule: 'price_max', text: 'under 100' },
      { rule: 'sort_price_asc', text: 'cheapest' },
      { rule: 'color', text: 'red' },
      { rule: 'brand', text: 'nike' },
    ],
  });
  const ar = parse('حذاء نايك أحمر بسعر أقل من ٢٠٠ الأرخص');
  t.same(ar.filters, { price: { lte: 200 }, brand: ['Nike'], color: ['Red'] });
  t.equal(ar.sort, 'price_asc');
  t.equal(ar.rest, 'حذاء');
  const mixed = parse('تلفزيون سامسونج 55 بوصة من 1000 إلى 2000 ريال الأحدث');
  t.same(mixed.filters, { price: { gte: 1000, lte: 2000 }, brand: ['Samsung'] });
  t.equal(mixed.sort, 'newest');
  t.equal(mixed.rest, 'تلفزيون 55 بوصه');
  t.same(parse('white samsung phone between $300 and $500 best selling').filters, { price: { gte: 300, lte: 500 }, brand: ['Samsung'], color: ['White'] });
});

t.test('nothing understood: rest is the input, no filters', async (t) => {
  for (const q of ['running shoes', 'شاحن سريع', '', 'dv7-1211ea battery']) {
    t.same(parse(q), { filters: {}, sort: null, rest: normalizeText(q), fired: [] }, q);
  }
});

t.test('fast enough for every search', async (t) => {
  const queries = ['red nike shoes under 100 cheapest', 'حذاء نايك أحمر بسعر أقل من 200 الأرخص', 'iphone 15 pro max 256gb', 'شاشة سامسونج 55 بوصة'].map((q) =>
    normalizeText(q),
  );
  for (const q of queries) parseRules(q, ctx);
  const n = 20_000;
  const start = performance.now();
  for (let i = 0; i < n; i++) parseRules(queries[i % queries.length], ctx);
  const perCall = (performance.now() - start) / n;
  t.ok(perCall < 0.2, `${perCall.toFixed(4)} ms per call`);
});
