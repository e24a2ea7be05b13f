import t from 'tap';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ProductIn as ProductInSchema } from '../../shared/catalog/product.schema.js';
import {
  detectCatalogKind,
  inferChorusType,
  typeFromAttributes,
  typeFromSpecs,
  mapChorus,
  mapFlipkart,
  mapperFor,
  readJsonl,
  MAX_CHORUS_ATTRIBUTES,
  type ProductIn,
} from '../../scripts/catalog/mappers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = resolve(repoRoot, process.env.SHARED_DATA_DIR ?? '../shared/data');
const CHORUS = join(dataDir, 'chorus-icecat/products.jsonl.gz');
const FLIPKART = join(dataDir, 'flipkart-products/products.jsonl.gz');
const SAMPLE = 200;

const LANG_KEY = /^[a-z]{2}(-[A-Za-z]{2})?$/;
const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;
const KEYS = new Set([
  'id',
  'name',
  'description',
  'brand',
  'model',
  'sku',
  'gtin',
  'url',
  'image_url',
  'price',
  'sale_price',
  'currency',
  'in_stock',
  'stock_qty',
  'categories',
  'attributes',
  'tags',
  'popularity',
  'margin',
  'visible',
  'updated_at',
  'extra',
]);

/** Every ProductIn limit, checked by hand (the API's zod schema is checked separately): a list of problems, empty when fine. */
function productInProblems(p: ProductIn): string[] {
  const bad: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) bad.push(what);
  };
  const isStr = (v: unknown, max: number, min = 0) => typeof v === 'string' && v.length >= min && v.length <= max;
  const optStr = (v: unknown, max: number) => v === undefined || v === null || isStr(v, max);
  const langMap = (v: unknown) =>
    !!v && typeof v === 'object' && !Array.isArray(v) && Object.entries(v).every(([k, s]) => LANG_KEY.test(k) && isStr(s, 20_000));
  const money = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0) || (typeof v === 'string' && DECIMAL.test(v));
  for (const k of Object.keys(p)) check(KEYS.has(k), `unknown key ${k}`);
  check(isStr(p.id, 128, 1), 'id 1..128');
  check(langMap(p.name) && Object.values(p.name).some((s) => s.trim().length > 0), 'name: non-empty language map');
  check(p.description === undefined || langMap(p.description), 'description: language map');
  for (const k of ['brand', 'model', 'sku'] as const) check(optStr(p[k], 200), `${k} <= 200`);
  check(optStr(p.gtin, 50), 'gtin <= 50');
  check(optStr(p.url, 2048) && optStr(p.image_url, 2048), 'urls <= 2048');
  check(money(p.price), 'price >= 0');
  check(p.sale_price === undefined || p.sale_price === null || money(p.sale_price), 'sale_price >= 0');
  check(typeof p.currency === 'string' && /^[A-Z]{3}$/.test(p.currency), 'currency ISO 4217');
  check(p.in_stock === undefined || typeof p.in_stock === 'boolean', 'in_stock boolean');
  check(p.stock_qty === undefined || p.stock_qty === null || (Number.isInteger(p.stock_qty) && p.stock_qty >= 0), 'stock_qty int >= 0');
  check(
    p.categories === undefined ||
      (Array.isArray(p.categories) &&
        p.categories.length <= 50 &&
        p.categories.every((c) => isStr(c.id, 128, 1) && Array.isArray(c.path) && c.path.length >= 1 && c.path.length <= 10 && c.path.every(langMap))),
    'categories',
  );
  check(
    p.attributes === undefined ||
      Object.entries(p.attributes).every(
        ([k, v]) =>
          isStr(k, 200, 1) &&
          (isStr(v, 1000) ||
            (typeof v === 'number' && Number.isFinite(v)) ||
            typeof v === 'boolean' ||
            (Array.isArray(v) && v.length <= 100 && v.every((s) => isStr(s, 1000)))),
      ),
    'attributes',
  );
  check(p.tags === undefined || (p.tags.length <= 100 && p.tags.every((s) => isStr(s, 200))), 'tags');
  check(p.popularity === undefined || p.popularity === null || (Number.isFinite(p.popularity) && p.popularity >= 0), 'popularity >= 0');
  check(p.margin === undefined || p.margin === null || Number.isFinite(p.margin), 'margin finite');
  check(p.visible === undefined || typeof p.visible === 'boolean', 'visible boolean');
  check(p.updated_at === undefined || p.updated_at === null || (typeof p.updated_at === 'string' && !Number.isNaN(Date.parse(p.updated_at))), 'updated_at ISO');
  check(p.extra === undefined || (typeof p.extra === 'object' && p.extra !== null && !Array.isArray(p.extra)), 'extra object');
  return bad;
}

/** Hand checker plus the API's own zod schema: all problems of one product. */
function problemsOf(p: ProductIn): string[] {
  const parsed = ProductInSchema.safeParse(p);
  return [...productInProblems(p), ...(parsed.success ? [] : parsed.error.issues.map((i) => `API schema: ${i.path.join('.')}: ${i.message}`))];
}

type Checks = { same(found: unknown, wanted: unknown, message: string): boolean };

/** Asserts one product passes both checkers. */
function assertValid(t: Checks, p: ProductIn) {
  t.same(problemsOf(p), [], `${p.id}: within every ProductIn limit`);
}

async function firstRecords(path: string, n: number): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const raw of readJsonl(path)) {
    out.push(raw as Record<string, unknown>);
    if (out.length >= n) break;
  }
  return out;
}

const missing = (path: string) => (existsSync(path) ? false : `no data at ${path} (set SHARED_DATA_DIR)`);

t.test('chorus: the first records of the real catalog', { skip: missing(CHORUS) }, async (t) => {
  const raws = await firstRecords(CHORUS, SAMPLE);
  t.equal(raws.length, SAMPLE);
  let typed = 0;
  const problems: string[] = [];
  const expect = (ok: boolean, id: string, what: string) => {
    if (!ok) problems.push(`${id}: ${what}`);
  };
  for (const raw of raws) {
    const p = mapChorus(raw);
    problems.push(...problemsOf(p).map((m) => `${p.id}: ${m}`));
    expect(p.id === raw.id, p.id, 'id');
    expect(p.currency === 'USD', p.id, 'currency');
    expect(p.price === ((raw.price as number) / 100).toFixed(2), p.id, `price ${String(p.price)} from ${String(raw.price)} cents`);
    expect(p.brand === raw.supplier, p.id, 'brand is the supplier');
    const attrs = Object.entries(p.attributes ?? {});
    expect(attrs.length <= MAX_CHORUS_ATTRIBUTES, p.id, `${attrs.length} attributes`);
    for (const [k, v] of attrs) {
      const text = raw[`attr_t_${k}`];
      if (typeof v === 'string') expect(typeof text === 'string' && text.trim().startsWith(v), p.id, `${k} is not the attr_t_${k} text`);
      else expect(typeof v === 'number' && raw[`attr_n_${k}`] === v, p.id, `${k} is not the attr_n_${k} number`);
    }
    if (p.categories?.length) typed++;
  }
  t.same(problems, [], `all ${SAMPLE} products are valid ProductIn, priced from cents, attributes unprefixed with their types`);
  t.ok(typed > SAMPLE / 2, `most products get a type category (${typed}/${SAMPLE})`);

  const toner = mapChorus(raws.find((r) => r.price === 4995)!);
  t.equal(toner.price, '49.95');
  const hp = mapChorus(raws.find((r) => r.id === '2101957')!);
  t.match(hp.name.en, /^HP Pavilion dv7-1211ea Notebook/);
  t.same(hp.categories, [{ id: 'notebooks', path: [{ en: 'Electronics' }, { en: 'Laptops & Notebooks' }] }]);
  t.equal(hp.model, 'dv7-1211ea');
  t.equal(hp.gtin, '0884420588030');
  t.equal(hp.updated_at, '2008-12-19T00:00:00.000Z');
  t.match(hp.image_url, /gallery_mediums/);
  t.equal(hp.attributes?.product_colour, 'Silver');
  t.equal(hp.attributes?.display_diagonal, 17);
  t.equal(Object.keys(hp.attributes!).length, MAX_CHORUS_ATTRIBUTES, 'a spec-heavy record is capped');
  t.notOk('touchscreen' in hp.attributes!, 'attr_b_ flags are not attributes');
});

t.test('flipkart: the first records of the real catalog', { skip: missing(FLIPKART) }, async (t) => {
  const raws = await firstRecords(FLIPKART, SAMPLE);
  let dropped = 0;
  let discounted = 0;
  const problems: string[] = [];
  const expect = (ok: boolean, id: string, what: string) => {
    if (!ok) problems.push(`${id}: ${what}`);
  };
  for (const raw of raws) {
    const p = mapFlipkart(raw);
    const id = String(raw.id);
    if (raw.retail_price_inr === null && raw.discounted_price_inr === null) {
      expect(p === null, id, 'no price but not skipped');
      continue;
    }
    if (!p) {
      problems.push(`${id}: skipped`);
      continue;
    }
    problems.push(...problemsOf(p).map((m) => `${id}: ${m}`));
    expect(p.id === raw.id && p.currency === 'INR' && p.price === raw.retail_price_inr, id, 'id, currency, price');
    const sale = raw.discounted_price_inr as number;
    expect(p.sale_price === (sale < (raw.retail_price_inr as number) ? sale : null), id, `sale price ${String(p.sale_price)}`);
    if (p.sale_price !== null) discounted++;
    const path = raw.category_path as string[];
    const levels = p.categories?.[0]?.path.map((l) => l.en) ?? [];
    const last = path[path.length - 1];
    if (last === raw.name || last.endsWith('...')) {
      dropped++;
      expect(JSON.stringify(levels) === JSON.stringify(path.slice(0, -1)), id, `leaf not dropped: ${JSON.stringify(levels)}`);
    }
    expect(!levels.some((l) => l.endsWith('...')), id, 'cut-off level kept');
    expect(JSON.stringify(p.extra) === JSON.stringify({ pid: raw.pid, fk_advantage: raw.fk_advantage }), id, 'extra');
  }
  t.same(problems, [], `all priced records are valid ProductIn with the category and sale-price rules applied`);
  t.ok(dropped > 0 && discounted > 0, `the sample exercises both rules (${dropped} dropped leaves, ${discounted} discounts)`);

  const shorts = mapFlipkart(raws[0])!;
  t.same(shorts.categories, [
    {
      id: 'clothing/womens-clothing/lingerie-sleep-swimwear/shorts/alisha-shorts',
      path: ['Clothing', "Women's Clothing", 'Lingerie, Sleep & Swimwear', 'Shorts', 'Alisha Shorts'].map((en) => ({ en })),
    },
  ]);
  t.equal(shorts.sale_price, 379);
  t.match(shorts.description?.en, /^Key Features of Alisha/);
  t.match(shorts.url, /^http:\/\/www\.flipkart\.com\//);
});

t.test('flipkart: records without a price are skipped (whole file)', { skip: missing(FLIPKART) }, async (t) => {
  let seen = 0;
  for await (const raw of readJsonl(FLIPKART)) {
    const r = raw as Record<string, unknown>;
    if (r.retail_price_inr !== null || r.discounted_price_inr !== null) continue;
    t.equal(mapFlipkart(r), null);
    if (++seen >= 5) break;
  }
  t.equal(seen, 5, 'the file has unpriced records');
});

t.test('the ProductIn checker itself catches violations', async (t) => {
  const bad = {
    id: '',
    name: { en: ' ' },
    brand: 'b'.repeat(201),
    gtin: 'g'.repeat(51),
    url: 'u'.repeat(2049),
    price: -1,
    sale_price: '1,5',
    currency: 'usd',
    categories: [{ id: 'c', path: [] }],
    attributes: { k: 'v'.repeat(1001) },
    popularity: -2,
    updated_at: 'yesterday',
    colour: 'red',
  } as unknown as ProductIn;
  const problems = productInProblems(bad);
  for (const what of [
    'id 1..128',
    'name',
    'brand',
    'gtin',
    'urls',
    'price >= 0',
    'sale_price',
    'currency',
    'categories',
    'attributes',
    'popularity',
    'updated_at',
    'unknown key colour',
  ]) {
    t.ok(
      problems.some((m) => m.startsWith(what)),
      `flags ${what}`,
    );
  }
  t.notOk(ProductInSchema.safeParse(bad).success, 'and so does the API schema');
});

const chorusRaw = (over: Record<string, unknown> = {}) => ({
  id: '42',
  name: 'X1-9',
  title: 'Acme X1-9 Notebook Black 35.6 cm (14")',
  supplier: 'Acme',
  ean: ['1234567890123'],
  price: 123456,
  short_description: 'A laptop.',
  img_500x500: 'http://img.example/500.jpg',
  img_high: 'http://img.example/high.jpg',
  date_released: '2019-05-01T00:00:00Z',
  ...over,
});

t.test('chorus: hand-written records', async (t) => {
  const p = mapChorus(chorusRaw({ attr_t_product_colour: 'Black', attr_n_weight: 1200, attr_t_empty: '  ', attr_n_bad: null, attr_b_touchscreen: true }));
  assertValid(t, p);
  t.same(p, {
    id: '42',
    name: { en: 'Acme X1-9 Notebook Black 35.6 cm (14")' },
    description: { en: 'A laptop.' },
    brand: 'Acme',
    model: 'X1-9',
    gtin: '1234567890123',
    image_url: 'http://img.example/500.jpg',
    price: '1234.56',
    currency: 'USD',
    categories: [{ id: 'notebooks', path: [{ en: 'Electronics' }, { en: 'Laptops & Notebooks' }] }],
    attributes: { product_colour: 'Black', weight: 1200 },
    updated_at: '2019-05-01T00:00:00.000Z',
  });
  t.equal(mapChorus(chorusRaw({ price: 4995 })).price, '49.95');
  t.equal(mapChorus(chorusRaw({ price: 5 })).price, '0.05');
  t.equal(mapChorus(chorusRaw({ price: 0 })).price, '0.00');
  t.throws(() => mapChorus(chorusRaw({ price: undefined })), /no valid price/);

  const edge = mapChorus(
    chorusRaw({
      title: undefined,
      supplier: 'B'.repeat(300),
      name: 'M'.repeat(300),
      ean: ['9'.repeat(60), '4006381333931'],
      short_description: '',
      img_500x500: `http://img.example/${'a'.repeat(2100)}`,
      date_released: 'not a date',
      attr_t_long: 'x'.repeat(5000),
    }),
  );
  assertValid(t, edge);
  t.equal(edge.name.en, 'M'.repeat(300), 'name falls back to the model name');
  t.equal(edge.brand?.length, 200);
  t.equal(edge.model?.length, 200);
  t.equal(edge.gtin, '4006381333931', 'first EAN that fits');
  t.equal(edge.image_url, 'http://img.example/high.jpg', 'too-long image URL dropped');
  t.equal(edge.description, undefined);
  t.equal(edge.updated_at, null);
  t.equal((edge.attributes?.long as string).length, 1000);

  const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`attr_n_a${i}`, i]));
  t.equal(Object.keys(mapChorus(chorusRaw(many)).attributes!).length, MAX_CHORUS_ATTRIBUTES);
  t.same(mapChorus(chorusRaw({ title: 'Acme ZZ-1 widget gizmo' })).categories, [], 'no type word, no category');
});

t.test('chorus: product type from the title', async (t) => {
  const cases: Array<[string, string | null]> = [
    ['HP Pavilion dv7-1211ea Notebook Silver 43.2 cm (17") Intel® Core™2 Duo 4 GB 250 GB HDD', 'notebooks'],
    ['Lenovo ThinkPad X1 Carbon Laptop 14" 16 GB 512 GB SSD', 'notebooks'],
    ['Targus CypressEco notebook case 39.6 cm (15.6") Briefcase Black', 'bags-cases'],
    ['Xerox 006R90321 toner cartridge Original Black 6 pc(s)', 'printer-supplies'],
    ['Canon PIXMA iP7250 inkjet printer Colour 9600 x 2400 DPI A4 Wi-Fi', 'printers'],
    ['StarTech.com 10 ft VGA Monitor Extension Cable - HD15 M/F', 'cables'],
    ['Tripp Lite 2-Port Compact USB KVM Switch w/Audio and Cable', 'kvm-switches'],
    ['APC BE750G Back-UPS ES uninterruptible power supply (UPS) 750 VA 450 W', 'ups'],
    ['Samsung Galaxy S10 smartphone 15.5 cm (6.1") 8 GB 128 GB', 'smartphones'],
    ['Logitech M185 wireless mouse Grey', 'mice'],
    ['Philips SHL8800/10 headphones/headset Head-band Black', 'headphones'],
    ['Tripp Lite 12-Port Wall-Mount Cat5e Patch Panel', 'cables'],
    ['Samsung SR350 68.6 cm (27") 1920 x 1080 pixels Full HD LED Black', null],
    ['HP 49A Original Black 1 pc(s)', 'printer-supplies'],
    ['Epson Singlepack Light Cyan T636500 UltraChrome HDR 700 ml', 'printer-supplies'],
    ['HP LaserJet P2055d 1200 x 1200 DPI A4', 'printers'],
    ['Netgear GS105 Unmanaged Gigabit Ethernet (10/100/1000) Blue', 'networking'],
    ['Allied Telesis AT-X600-48TS Managed L3 1U', 'networking'],
    ['Motorola one Macro 15.8 cm (6.2") 4 GB 64 GB Dual SIM 4G USB Type-C Violet Android 9.0 4000 mAh', 'smartphones'],
    ['Logitech G502 mouse USB Type-A Optical 25600 DPI', 'mice'],
    ['NGS Roller Coaster 10 W Stereo portable speaker Red', 'speakers'],
    ['Xerox 108R00592 printer roller Printer transfer roller 15000 pages', 'spare-parts'],
    ["Kensington Contour 17'' Laptop Roller- Black", 'bags-cases'],
    ['Lenovo V55t AMD Ryzen 5 3400G 8 GB DDR4-SDRAM 256 GB SSD Tower Black PC', 'desktops'],
    ['ASUS E500 G5 9th gen Intel Core i7 16 GB 1512 GB HDD+SSD Tower Black Workstation', 'desktops'],
    ['Samsung Spinpoint F3 1000GB HDD 3.5" Serial ATA II', 'drives'],
    ['Kensington Foam Keyboard Wrist Rest Black', 'wrist-rests'],
    ['APC 19" Rotating Keyboard Drawer Black', 'mounts'],
    ['Philips SDV2950 UHF digital and analog Indoor/outdoor TV antenna', 'antennas'],
    ['V7 Height Adjustable TV Cart', 'mounts'],
    ['Canon Ink Cart BCI-3ePC fotocyan BJC6000 Original Cyan', 'printer-supplies'],
    ['HP 48X PATA CD-ROM Drive optical disc drive', 'optical'],
    ['Intel AXXDVDCDR optical disc drive Internal DVD-R', 'optical'],
    ['HP 48X/32X combo drive CD-RW & DVD-ROM (carbonite) optical disc drive Internal', 'optical'],
    ['Philips CD-R CR7D5NB10/00', 'blank-media'],
    ['Sony BDP-S500 Blu-ray Disc player DVD player', 'media-players'],
  ];
  for (const [title, id] of cases) t.equal(inferChorusType(title)?.id ?? null, id, title);
  t.equal(inferChorusType('Case Logic DLC-115 sleeve', 'Case Logic')?.id, 'bags-cases', 'a leading brand is not a type word');
  t.equal(inferChorusType('Cooler Master Elite 430 computer case', 'Cooler Master')?.id, 'computer-cases');
});

t.test('chorus: a monitor by its screen specs when the title names no type', async (t) => {
  t.equal(mapChorus(chorusRaw({ title: 'DELL P2419HC 61 cm (24") 1920 x 1080 pixels Full HD LCD Black' })).categories?.[0]?.id, 'monitors');
  t.equal(typeFromSpecs('HP EliteBook 8540p 39.6 cm (15.6") 1600 x 900 pixels Intel® Core™ i7 4 GB DDR3-SDRAM 320 GB HDD'), null, 'a computer');
  t.equal(typeFromSpecs('HP iPAQ 214 Enterprise Handheld handheld mobile computer 10.2 cm (4") 640 x 480 pixels 190 g'), null, 'a handheld');
  t.equal(typeFromSpecs('Acme ZZ-1 widget gizmo'), null);
});

t.test('chorus: product type from Icecat type attributes when the title names none', async (t) => {
  const tab = mapChorus(
    chorusRaw({ title: 'Samsung Galaxy Tab S6 Lite SM-P610N 26.4 cm (10.4") 4 GB 64 GB Wi-Fi 5 Android 10', attr_t_device_type: 'Full-size tablet' }),
  );
  t.same(tab.categories, [{ id: 'tablets', path: [{ en: 'Electronics' }, { en: 'Tablets' }] }]);
  t.equal(typeFromAttributes({ attr_t_type: 'HDD' })?.id, 'drives');
  t.equal(typeFromAttributes({ attr_t_form_factor: 'Bar' })?.id, 'smartphones', 'a bar form factor is a phone');
  t.equal(typeFromAttributes({ attr_t_form_factor: 'Slate' }), null);
  t.equal(typeFromAttributes({ attr_t_type: 'Acme' }), null);
  const titled = mapChorus(chorusRaw({ title: 'Logitech M185 wireless mouse Grey', attr_t_type: 'HDD' }));
  t.equal(titled.categories?.[0]?.id, 'mice', 'the title wins over the attributes');
});

const flipkartRaw = (over: Record<string, unknown> = {}) => ({
  id: 'abc',
  pid: 'P1',
  name: "Acme Men's Shirt",
  brand: 'Acme',
  retail_price_inr: 999,
  discounted_price_inr: 499,
  product_rating: null,
  overall_rating: null,
  fk_advantage: true,
  category_path: ['Clothing', "Men's Clothing", 'Shirts', "Acme Men's Shirt"],
  ...over,
});

t.test('flipkart: hand-written records', async (t) => {
  const p = mapFlipkart(flipkartRaw())!;
  assertValid(t, p);
  t.same(p, {
    id: 'abc',
    name: { en: "Acme Men's Shirt" },
    brand: 'Acme',
    url: null,
    price: 999,
    sale_price: 499,
    currency: 'INR',
    categories: [{ id: 'clothing/mens-clothing/shirts', path: [{ en: 'Clothing' }, { en: "Men's Clothing" }, { en: 'Shirts' }] }],
    popularity: null,
    extra: { pid: 'P1', fk_advantage: true },
  });
  const levels = (over: Record<string, unknown>) => mapFlipkart(flipkartRaw(over))!.categories?.[0]?.path.map((l) => l.en) ?? [];
  t.same(levels({ category_path: ['Clothing', 'Shirts', "Acme Men's Sh..."] }), ['Clothing', 'Shirts'], 'cut-off leaf dropped');
  t.same(levels({ category_path: ['Clothing', 'Shirts', 'Acme Men'] }), ['Clothing', 'Shirts'], 'leaf that prefixes the name dropped');
  t.same(levels({ category_path: ['Clothing', 'Shirts', "Acme Men's Shirt (Pack of 2)"] }), ['Clothing', 'Shirts'], 'variant of the name dropped');
  t.same(levels({ category_path: ['Clothing', 'Shirts', 'Acme Shirts'] }), ['Clothing', 'Shirts', 'Acme Shirts'], 'a real leaf is kept');
  t.same(levels({ category_path: ["Acme Men's Shirt"] }), [], 'nothing left, no category');
  t.same(mapFlipkart(flipkartRaw({ category_path: ["Acme Men's Shirt"] }))!.categories, []);

  t.equal(mapFlipkart(flipkartRaw({ discounted_price_inr: 999 }))!.sale_price, null, 'equal price is no sale');
  t.equal(mapFlipkart(flipkartRaw({ discounted_price_inr: 1200 }))!.sale_price, null, 'higher price is no sale');
  t.equal(mapFlipkart(flipkartRaw({ retail_price_inr: null, discounted_price_inr: null })), null, 'no price, skipped');
  t.equal(mapFlipkart(flipkartRaw({ overall_rating: 4.2, product_rating: 3 }))!.popularity, 4.2);
  t.equal(mapFlipkart(flipkartRaw({ overall_rating: 'No rating available', product_rating: 3 }))!.popularity, 3);

  const edge = mapFlipkart(
    flipkartRaw({
      brand: null,
      description: 'Nice shirt',
      product_url: `http://www.flipkart.com/${'x'.repeat(2100)}`,
      category_path: Array.from({ length: 14 }, (_, i) => `Level ${i} ${'long '.repeat(8)}`),
    }),
  )!;
  assertValid(t, edge);
  t.equal(edge.brand, null);
  t.same(edge.description, { en: 'Nice shirt' });
  t.equal(edge.url, null, 'too-long URL dropped');
  t.equal(edge.categories![0].path.length, 10, 'at most 10 levels');
  t.ok(edge.categories![0].id.length <= 128, 'long category id capped');
});

t.test('readJsonl streams plain and gzipped files, skipping blank lines', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'read-jsonl-'));
  writeFileSync(join(dir, 'a.jsonl'), '{"a":1}\r\n\n   \n{"b":[2]}\n');
  writeFileSync(join(dir, 'a.jsonl.gz'), gzipSync('{"a":1}\n\n{"b":[2]}'));
  const all = async (path: string) => {
    const out: unknown[] = [];
    for await (const v of readJsonl(path)) out.push(v);
    return out;
  };
  t.same(await all(join(dir, 'a.jsonl')), [{ a: 1 }, { b: [2] }]);
  t.same(await all(join(dir, 'a.jsonl.gz')), [{ a: 1 }, { b: [2] }]);
  writeFileSync(join(dir, 'bad.jsonl'), '{"a":1}\n{oops\n');
  await t.rejects(all(join(dir, 'bad.jsonl')), /bad\.jsonl:2: invalid JSON/);
  await t.rejects(all(join(dir, 'missing.jsonl.gz')), /ENOENT/);
});

t.test('mapperFor and detectCatalogKind', async (t) => {
  t.equal(mapperFor('chorus'), mapChorus);
  t.equal(mapperFor('flipkart'), mapFlipkart);
  t.equal(detectCatalogKind('/data/chorus-icecat/products.jsonl.gz'), 'chorus');
  t.equal(detectCatalogKind('../shared/data/flipkart-products/products.jsonl.gz'), 'flipkart');
  t.equal(detectCatalogKind('/tmp/flipkart.jsonl'), 'flipkart');
  t.throws(() => detectCatalogKind('/data/other/products.jsonl.gz'), /cannot tell the catalog kind/);
});
