import t from 'tap';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_BATCH_ITEMS, ProductIn, validateItems } from '../../shared/catalog/index.js';
import { detectCatalogKind, mapperFor, readJsonl, type ProductIn as Product } from '../../scripts/catalog/mappers.js';
import { DEMO_STORE_SAMPLE, FLIPKART_SAMPLE, SHIPPED_SAMPLES, type ShippedSample } from '../../scripts/sample/samples.js';
import { selectFlipkartSample } from '../../scripts/sample/flipkart-selection.js';

/** The catalogs npm run demo loads when given none: they must load on a machine that has only the repo. */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const FULL_FLIPKART = join(resolve(repoRoot, process.env.SHARED_DATA_DIR ?? '../shared/data'), 'flipkart-products/products.jsonl.gz');

async function rawLines(file: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const raw of readJsonl(file)) out.push(raw as Record<string, unknown>);
  return out;
}

/** Every line mapped with the sample's own mapper, as npm run demo does; `skipped` counts lines the mapper leaves out. */
async function mapped(sample: ShippedSample): Promise<{ raw: Record<string, unknown>[]; products: Product[]; skipped: number }> {
  const raw = await rawLines(sample.file);
  const mapper = mapperFor(sample.kind);
  const products = raw.map((r) => mapper(r)).filter((p): p is Product => p !== null);
  return { raw, products, skipped: raw.length - products.length };
}

const flipkart = await mapped(FLIPKART_SAMPLE);
const demoStore = await mapped(DEMO_STORE_SAMPLE);

t.test('the samples are in the repo and npm run demo can tell their kind from their names', async (t) => {
  for (const s of SHIPPED_SAMPLES) {
    t.ok(existsSync(s.file), `${s.file} exists`);
    t.equal(detectCatalogKind(s.file), s.kind, `${s.file} is read as ${s.kind}`);
    t.ok(s.file.startsWith(join(repoRoot, 'scripts', 'sample')), 'kept under scripts/sample/');
  }
  t.ok(statSync(FLIPKART_SAMPLE.file).size < 400 * 1024, 'the Flipkart sample stays a few hundred KB');
});

t.test('every record maps to a product the API schema and the batch validation accept', async (t) => {
  t.equal(flipkart.skipped, 0, 'the Flipkart mapper keeps every sample record (all have an id, a name and a price)');
  t.equal(demoStore.skipped, 1, 'the demo store skips only its $comment line');
  const all = [...flipkart.products, ...demoStore.products];
  const schemaProblems = all.flatMap((p) => {
    const r = ProductIn.safeParse(p);
    return r.success ? [] : [`${p.id}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`];
  });
  t.same(schemaProblems, [], 'ProductIn (the schema POST /v1/products/batch validates with) accepts every product');
  let accepted = 0;
  for (let i = 0; i < all.length; i += MAX_BATCH_ITEMS) {
    const { errors, upserts } = validateItems({ upsert: all.slice(i, i + MAX_BATCH_ITEMS), replace_all: false, sync_complete: false });
    t.same(errors, [], `batch ${i / MAX_BATCH_ITEMS + 1}: no item errors`);
    accepted += upserts.length;
  }
  t.equal(accepted, all.length, 'every product is accepted as an upsert');
});

t.test('ids are unique across both samples', async (t) => {
  const ids = [...flipkart.products, ...demoStore.products].map((p) => p.id);
  const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
  t.same(dupes, [], 'no id appears twice');
});

t.test('the Flipkart sample is varied: a few thousand products over many categories, with brands and prices', async (t) => {
  const n = flipkart.products.length;
  t.ok(n >= 2000 && n <= 5000, `a few thousand products (${n})`);
  const tops = new Map<string, number>();
  for (const p of flipkart.products) tops.set(p.categories![0].path[0].en, (tops.get(p.categories![0].path[0].en) ?? 0) + 1);
  t.ok(tops.size >= 15, `many top-level categories (${tops.size})`);
  t.ok(Math.max(...tops.values()) <= n * 0.15, 'no top-level category holds more than 15% of the sample');
  t.ok(
    flipkart.products.every((p) => p.categories?.[0]?.path.length! >= 2),
    'every product has at least two category levels',
  );
  t.ok(flipkart.products.filter((p) => p.brand).length >= n * 0.9, 'at least 90% have a brand');
  t.ok(
    flipkart.products.every((p) => p.currency === 'INR' && Number(p.price) > 0),
    'every product has a price in INR',
  );
  const names = new Set(flipkart.products.map((p) => p.name.en.toLowerCase()));
  t.equal(names.size, n, 'one product per name (no size/colour variants)');
});

t.test('the demo store is bilingual, labelled as written for the demo, and has English-only products', async (t) => {
  const [first] = demoStore.raw;
  t.match(String(first.$comment), /written for the demo/i, 'its first line says it was written for the demo');
  t.match(String(first.$comment), /not real store data/i, 'and is not real store data');
  const n = demoStore.products.length;
  t.ok(n >= 100 && n <= 200, `100-200 products (${n})`);
  t.ok(
    demoStore.products.every((p) => p.currency === 'SAR' && p.name.en && p.brand),
    'every product has an English name, a brand and a SAR price',
  );
  const englishOnly = demoStore.products.filter((p) => !p.name.ar);
  t.ok(englishOnly.length >= 10 && englishOnly.length <= n / 4, `some products are English-only for issue 14 to translate (${englishOnly.length})`);
  t.ok(
    englishOnly.every((p) => !p.description?.ar),
    'an English-only product has no Arabic description either',
  );
  const arabic = /[\u0600-\u06ff]/;
  t.ok(
    demoStore.products.filter((p) => p.name.ar).every((p) => arabic.test(p.name.ar) && arabic.test(p.description?.ar ?? '')),
    'the Arabic names and descriptions are in Arabic script',
  );
  const levels = demoStore.products.flatMap((p) => p.categories!.flatMap((c) => c.path));
  t.ok(
    levels.every((l) => l.en && arabic.test(l.ar)),
    'every category level is labelled in English and Arabic',
  );
  const tops = new Set(demoStore.products.map((p) => p.categories![0].path[0].en));
  t.same([...tops].sort(), ['Beauty', 'Electronics', 'Fashion', 'Home', 'Watches'], 'fashion, watches, home, electronics and beauty');
  t.ok(
    demoStore.products.every((p) => p.attributes && Object.keys(p.attributes).length > 0),
    'every product has attributes',
  );
});

t.test(
  'select-flipkart.ts regenerates the committed sample from the full catalog',
  { skip: existsSync(FULL_FLIPKART) ? false : `no full catalog at ${FULL_FLIPKART}` },
  async (t) => {
    const again = selectFlipkartSample((await rawLines(FULL_FLIPKART)) as Record<string, unknown>[], flipkart.raw.length);
    t.same(again, flipkart.raw, 'the same records, fields and order as the committed file');
  },
);
