import t, { type Test } from 'tap';
import { createTestDatabase } from '../helpers/db.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { PostgresEngine } from '../../shared/engines/lexical/postgres.engine.js';
import type { EngineQuery, IndexSettings, SearchDoc } from '../../shared/engines/lexical/port.js';
import { searchStatement } from '../../shared/engines/lexical/postgres.statement.js';

// Searches without words answer from the store's held counts (whole store, one category, in stock
// only) exactly what the statement counts; a write, a notice from another process and a generation
// swap each make them counted again.
const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 4 });
t.teardown(async () => {
  await db.destroy();
  await database.drop();
});
const SETTINGS: IndexSettings = { facetFields: [{ name: 'color', type: 'string' }], locales: ['en'] };
const tenantId = 'ten_storefacets';
await db('tenants').insert({ id: tenantId, name: 'store-facets', locales: ['en'], default_locale: 'en' });

const CATS = {
  lamps: {
    ids: ['c-lamp', 'lvl:home', 'lvl:home>lamps'],
    path: [
      { id: 'lvl:home', label: { en: 'Home' } },
      { id: 'c-lamp', label: { en: 'Lamps' } },
    ],
  },
  chairs: {
    ids: ['c-chair', 'lvl:home', 'lvl:home>chairs'],
    path: [
      { id: 'lvl:home', label: { en: 'Home' } },
      { id: 'c-chair', label: { en: 'Chairs' } },
    ],
  },
  pens: {
    ids: ['c-pen', 'lvl:office', 'lvl:office>pens'],
    path: [
      { id: 'lvl:office', label: { en: 'Office' } },
      { id: 'c-pen', label: { en: 'Pens' } },
    ],
  },
};
function doc(i: number, cat: keyof typeof CATS, over: Partial<SearchDoc> = {}): SearchDoc {
  const id = `p${String(i).padStart(3, '0')}`;
  const brand = ['Acme', 'Bolt', 'Corvo', null][i % 4];
  return {
    id,
    name: { en: `${cat} ${id}` },
    nameNorm: `${cat} ${id}`,
    nameStem: `${cat} ${id}`,
    brand,
    brandNorm: brand?.toLowerCase() ?? null,
    codes: [],
    categoryIds: CATS[cat].ids,
    categoryPaths: [CATS[cat].path],
    categoryText: cat,
    attributeText: '',
    descriptionNorm: '',
    facets: i % 3 ? { color: i % 2 ? ['Red'] : ['Red', 'Blue'] } : {},
    price: 5 + ((i * 7) % 40),
    inStock: i % 5 !== 0,
    visible: i % 11 !== 0,
    popularity: (i * 13) % 17,
    margin: null,
    createdAt: 1_700_000_000_000 + i,
    version: 1,
    card: { id, name: { en: id }, url: null, image_url: null, price: '1', sale_price: null, currency: 'USD', in_stock: true, brand, category: null },
    ...over,
  };
}
const docs = Array.from({ length: 60 }, (_, i) => doc(i, i < 30 ? 'lamps' : i < 50 ? 'chairs' : 'pens'));
const writer = new PostgresEngine(db);
await writer.upsert(tenantId, docs, SETTINGS);

const FACETS = ['brand', 'category', 'category_tree', 'price', 'in_stock', 'color'];
const base: EngineQuery = { tenantId, tokens: [], offset: 0, limit: 7, facets: FACETS, boost: { inStockFirst: true, popularity: 0.3, margin: 0 } };
const QUERIES: Array<[string, EngineQuery]> = [
  ['whole store', base],
  ['second page', { ...base, offset: 7 }],
  ['a category by id', { ...base, filters: { category: ['c-lamp'] } }],
  ['a category by path', { ...base, filters: { category: 'Home' } }],
  ['a category by path, price sort', { ...base, filters: { category: ['Home>Chairs'] }, sort: 'price_asc' }],
  ['in stock', { ...base, filters: { in_stock: true } }],
  ['out of stock, newest', { ...base, filters: { in_stock: false }, sort: 'newest' }],
  ['a small category', { ...base, filters: { category: ['c-pen'] } }],
  ['two filters', { ...base, filters: { category: ['c-lamp'], in_stock: true } }],
  ['a brand', { ...base, filters: { brand: ['Acme'] } }],
];

/** Answers of a fresh engine (nothing held: every count made by the statement). */
async function counted(q: EngineQuery) {
  return new PostgresEngine(db).search(q);
}

/** An engine whose store counts are held (a first search without words starts their build). */
async function holding(t: Test) {
  const engine = new PostgresEngine(db, { storeFacetsMinRows: 5 });
  await engine.search(base);
  for (let i = 0; i < 100 && !engine.holdsStoreCounts(tenantId); i++) await new Promise((r) => setTimeout(r, 50));
  t.ok(engine.holdsStoreCounts(tenantId), 'the counts were built');
  return engine;
}

/** The statements a search ran, and whether one of them counted facets. */
async function traced<T>(fn: () => Promise<T>): Promise<{ value: T; countedFacets: boolean }> {
  const sqls: string[] = [];
  const listen = (q: { sql: string }) => sqls.push(q.sql);
  db.on('query', listen);
  try {
    const value = await fn();
    return { value, countedFacets: sqls.some((s) => /AS facet_\d/.test(s)) };
  } finally {
    db.off('query', listen);
  }
}

t.test('held counts answer exactly what the statement counts', async (t) => {
  const engine = await holding(t);
  for (const [label, q] of QUERIES) {
    const { value, countedFacets } = await traced(() => engine.search(q));
    t.same(value, await counted(q), label);
    if (['whole store', 'second page', 'a category by id', 'a category by path', 'in stock'].includes(label))
      t.notOk(countedFacets, `${label}: nothing counted per request`);
  }
  // The whole store answered from them: the same page, the same totals and counts.
  const whole = await engine.search(base);
  t.equal(whole.total, docs.filter((d) => d.visible).length);
  t.same(
    (whole.facets.in_stock as Array<{ value: string; count: number }>).map((b) => b.count).reduce((a, b) => a + b, 0),
    whole.total,
  );
});

/** What a query's facets count when they follow every filter: the visible docs passing all of them, counted here. */
function expectedFollowing(q: EngineQuery) {
  const f = q.filters ?? {};
  const inCategory = (d: SearchDoc, v: string) =>
    d.categoryIds.includes(v) ||
    d.categoryIds.includes(
      `lvl:${v
        .split('>')
        .map((x) => x.toLowerCase())
        .join('>')}`,
    );
  const rows = docs.filter(
    (d) =>
      d.visible &&
      (!q.tokens.length || d.nameNorm.startsWith(q.tokens[0])) &&
      (f.brand === undefined || (f.brand as string[]).includes(d.brand ?? '')) &&
      (f.in_stock === undefined || d.inStock === f.in_stock) &&
      (f.category === undefined || [f.category as string | string[]].flat().some((v) => inCategory(d, v))),
  );
  const count = (values: (d: SearchDoc) => string[]) => {
    const out: Record<string, number> = {};
    for (const d of rows) for (const v of values(d)) out[v] = (out[v] ?? 0) + 1;
    return out;
  };
  return {
    total: rows.length,
    brand: count((d) => (d.brand ? [d.brand] : [])),
    in_stock: count((d) => [String(d.inStock)]),
    color: count((d) => (d.facets.color as string[] | undefined) ?? []),
    category: count((d) => d.categoryIds.filter((c) => !c.startsWith('lvl:'))),
    category_tree: count((d) => d.categoryIds.filter((c) => c.startsWith('lvl:'))),
    price: rows.length ? { min: Math.min(...rows.map((d) => d.price)), max: Math.max(...rows.map((d) => d.price)) } : { min: null, max: null },
  };
}
const asCounts = (buckets: unknown) => Object.fromEntries((buckets as Array<{ value: string; count: number }>).map((b) => [b.value, b.count]));

t.test('facetsFollowFilters: every facet counted under every filter, its own too (statement and held counts)', async (t) => {
  const engine = await holding(t);
  const cases: Array<[string, EngineQuery]> = [
    ...QUERIES.filter(([, q]) => q.filters),
    ['words and a filter', { ...base, tokens: ['lamps'], filters: { in_stock: true } }],
    ['words and a category', { ...base, tokens: ['chairs'], filters: { category: ['c-chair'], brand: ['Acme'] } }],
  ];
  for (const [label, plain] of cases) {
    const q = { ...plain, facetsFollowFilters: true };
    const want = expectedFollowing(q);
    for (const [which, res] of [
      ['statement', await counted(q)],
      ['held', await engine.search(q)],
    ] as const) {
      t.equal(res.total, want.total, `${label} (${which}): total`);
      t.same(
        {
          brand: asCounts(res.facets.brand),
          in_stock: asCounts(res.facets.in_stock),
          color: asCounts(res.facets.color),
          category: asCounts(res.facets.category),
          category_tree: asCounts(res.facets.category_tree),
          price: res.facets.price,
        },
        { brand: want.brand, in_stock: want.in_stock, color: want.color, category: want.category, category_tree: want.category_tree, price: want.price },
        `${label} (${which}): counts over the matches`,
      );
    }
  }
  // Absent (or false) the statement is the one sent before the option existed: disjunctive, byte for byte.
  for (const [label, q] of [...QUERIES, ['words', { ...base, tokens: ['lamps'], filters: { brand: ['Acme'] } }] as [string, EngineQuery]]) {
    t.same(searchStatement({ ...q, facetsFollowFilters: false }), searchStatement(q), `${label}: false sends the same statement`);
  }
  const brand = await counted({ ...base, filters: { brand: ['Acme'] } });
  t.ok(Object.keys(asCounts(brand.facets.brand)).length > 1, 'without it the brand counts ignore the brand filter');
});

t.test('a write, a notice and a swap make them counted again', async (t) => {
  const engine = await holding(t);
  // A write by this engine: its own counts go at once.
  await engine.upsert(tenantId, [doc(100, 'pens', { brand: 'Dyna', brandNorm: 'dyna' })], SETTINGS);
  const after = await engine.search(base);
  t.same(after, await counted(base), 'the new product is counted');
  t.ok((after.facets.brand as Array<{ value: string }>).some((b) => b.value === 'Dyna'));

  // A write by another process: stale until its notice (changed), exact after it.
  const other = await holding(t);
  await writer.remove(tenantId, ['p100']);
  other.changed(tenantId);
  t.same(await other.search(base), await counted(base), 'the removal is counted after the notice');

  // A generation swap whose notice has not come: the held counts are of the old generation.
  const third = await holding(t);
  const generation = await writer.beginGeneration(tenantId, SETTINGS);
  await writer.writeGeneration(tenantId, generation, docs.slice(0, 40));
  await writer.swapGeneration(tenantId, generation);
  const swapped = await third.search(base);
  t.same(swapped, await counted(base), 'counted again for the new generation');
  t.equal(swapped.total, docs.slice(0, 40).filter((d) => d.visible).length);
});
