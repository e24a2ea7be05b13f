import t from 'tap';
import { randomUUID } from 'node:crypto';
import { TypesenseEngine, TypesenseImportError } from '../../shared/engines/lexical/typesense.engine.js';
import { searchPlan } from '../../shared/engines/lexical/typesense.query.js';
import type { EngineQuery, IndexSettings, SearchDoc } from '../../shared/engines/lexical/port.js';
import type { RecordedRequest } from './openapi-check.js';
import { typesenseChecker as checker } from './typesense-checker.js';
import { FakeTypesense } from './typesense-fake.js';

const SETTINGS: IndexSettings = {
  facetFields: [
    { name: 'color', type: 'string' },
    { name: 'weight', type: 'number' },
    { name: 'wifi', type: 'boolean' },
  ],
  locales: ['en', 'ar'],
};

function doc(id: string, over: Partial<SearchDoc> = {}): SearchDoc {
  const brand = over.brand === undefined ? 'Acme' : over.brand;
  return {
    id,
    name: { en: `Laptop ${id}` },
    nameNorm: `laptop ${id}`,
    nameStem: `laptop ${id}`,
    brand,
    brandNorm: brand?.toLowerCase() ?? null,
    codes: [`sku-${id}`],
    categoryIds: ['c-lap', 'lvl:electronics', 'lvl:electronics>laptops'],
    categoryPaths: [
      [
        { id: 'lvl:electronics', label: { en: 'Electronics' } },
        { id: 'c-lap', label: { en: 'Laptops', ar: 'لابتوب' } },
      ],
    ],
    categoryText: 'electronics laptops',
    attributeText: 'red',
    descriptionNorm: 'a light laptop',
    facets: { color: ['Red'], weight: 1.5, wifi: true },
    price: 100,
    inStock: true,
    visible: true,
    popularity: 1,
    margin: null,
    createdAt: 1_700_000_000_000,
    card: {
      id,
      name: { en: `Laptop ${id}` },
      url: null,
      image_url: null,
      price: '100',
      sale_price: null,
      currency: 'USD',
      in_stock: true,
      brand,
      category: null,
    },
    description: { en: 'A light laptop' },
    ...over,
  };
}

const query = (tenantId: string, over: Partial<EngineQuery> = {}): EngineQuery => ({ tenantId, tokens: [], offset: 0, limit: 10, ...over });
const line = (r: RecordedRequest) => `${r.method} ${r.path}`;

const fake = await new FakeTypesense('test-key').start();
const engine = new TypesenseEngine({ url: fake.url, apiKey: 'test-key', collectionPrefix: 'ps' });
t.teardown(() => fake.close());

t.test('upsert creates the first generation and its alias on first use, then only imports', async (t) => {
  const mark = fake.requests.length;
  await engine.upsert('t1', [doc('a'), doc('b', { brand: null })], SETTINGS);
  t.same(fake.since(mark).map(line).sort(), [
    'GET /aliases/ps_t1',
    'GET /collections',
    'GET /collections/ps_t1_g1/documents/export',
    'POST /collections',
    'POST /collections/ps_t1_g1/documents/import',
    'PUT /aliases/ps_t1',
  ]);
  t.equal(fake.aliases.get('ps_t1'), 'ps_t1_g1');
  const col = fake.collections.get('ps_t1_g1')!;
  const field = (name: string) => col.fields.find((f) => f.name === name);
  t.match(field('f_color'), { type: 'string[]', facet: true, optional: true });
  // Every attribute's values as text (a store sends numbers and text mixed), and its numbers apart for ranges.
  t.match(field('f_weight'), { type: 'string[]', facet: true, optional: true });
  t.match(field('n_weight'), { type: 'float[]', optional: true });
  t.match(field('f_wifi'), { type: 'string[]', facet: true, optional: true });
  t.match(field('card_json'), { type: 'string', index: false, optional: true });
  t.match(field('price'), { type: 'float', facet: true });
  t.notOk(field('id'), "id is Typesense's own field");
  t.equal(col.default_sorting_field, 'popularity');

  const stored = col.docs.get('a')!;
  t.same(JSON.parse(String(stored.card_json)), doc('a').card);
  t.same(stored.category_facet, [JSON.stringify(['c-lap', { en: 'Laptops', ar: 'لابتوب' }])]);
  t.same(stored.category_tree, [
    JSON.stringify(['lvl:electronics', { en: 'Electronics' }]),
    JSON.stringify(['lvl:electronics>laptops', { en: 'Laptops', ar: 'لابتوب' }]),
  ]);
  t.equal(col.docs.get('b')!.brand, null, 'a product without brand fits the schema');

  const imported = fake.since(mark).find((r) => r.path.endsWith('/import'))!;
  t.same([...imported.query], [['action', 'upsert']], "the client's own throwOnFail option stays off the wire");
  t.equal(imported.body.split('\n').length, 2, 'JSONL, one line a document');

  const again = fake.requests.length;
  await engine.upsert('t1', [doc('c')], SETTINGS);
  t.notOk(
    fake.since(again).some((r) => r.method === 'POST' && r.path === '/collections'),
    'no second create',
  );
  t.equal(col.docs.size, 3);
});

t.test('a refused import line fails the call and names the document', async (t) => {
  fake.failIds.add('bad-1');
  t.teardown(() => fake.failIds.delete('bad-1'));
  const err = await engine.upsert('t2', [doc('ok-1'), doc('bad-1'), doc('ok-2')], SETTINGS).then(
    () => null,
    (e: unknown) => e,
  );
  t.type(err, TypesenseImportError);
  t.match((err as Error).message, /1 of 3 documents failed: bad-1 \(Field `price` must be a float\.\)/);
  t.same((err as TypesenseImportError).failures, [{ id: 'bad-1', error: 'Field `price` must be a float.' }]);
  t.same([...fake.collections.get('ps_t2_g1')!.docs.keys()], ['ok-1', 'ok-2'], 'the other lines were imported, as Typesense does');
});

t.test('reindex: begin, writes go to both, write, swap moves the alias and drops the old collection', async (t) => {
  await engine.upsert('t3', [doc('a')], SETTINGS);
  const wider = { ...SETTINGS, facetFields: [...SETTINGS.facetFields, { name: 'size', type: 'string' as const }] };
  const generation = await engine.beginGeneration('t3', wider);
  t.equal(generation, 2);
  t.ok(
    fake.collections.get('ps_t3_g2')!.fields.some((f) => f.name === 'f_size'),
    'the new generation has the new settings',
  );

  let mark = fake.requests.length;
  await engine.upsert('t3', [doc('b')], SETTINGS);
  t.same(
    fake
      .since(mark)
      .filter((r) => r.path.endsWith('/import'))
      .map(line)
      .sort(),
    ['POST /collections/ps_t3_g1/documents/import', 'POST /collections/ps_t3_g2/documents/import'],
    'a write while building goes to the serving and the building generation',
  );

  mark = fake.requests.length;
  await engine.writeGeneration('t3', 2, [doc('a')]);
  t.same(fake.since(mark).map(line), ['GET /collections/ps_t3_g2/documents/export', 'POST /collections/ps_t3_g2/documents/import']);

  mark = fake.requests.length;
  await engine.swapGeneration('t3', 2);
  const swap = fake.since(mark);
  const put = swap.find((r) => r.method === 'PUT')!;
  t.equal(line(put), 'PUT /aliases/ps_t3');
  t.same(JSON.parse(put.body), { collection_name: 'ps_t3_g2' });
  t.ok(swap.indexOf(put) < swap.findIndex((r) => r.method === 'DELETE'), 'the alias moves before the old collection goes');
  t.ok(swap.some((r) => line(r) === 'DELETE /collections/ps_t3_g1'));
  t.equal(fake.aliases.get('ps_t3'), 'ps_t3_g2');
  t.notOk(fake.collections.has('ps_t3_g1'));
  t.same([...fake.collections.get('ps_t3_g2')!.docs.keys()].sort(), ['a', 'b']);
  await t.rejects(engine.swapGeneration('t3', 2), /not being built/);

  t.equal(await engine.beginGeneration('t3', SETTINGS), 3);
  t.equal(await engine.beginGeneration('t3', SETTINGS), 4, 'an abandoned building generation is replaced');
  t.notOk(fake.collections.has('ps_t3_g3'));
  await engine.dropGeneration('t3', 4);
  t.notOk(fake.collections.has('ps_t3_g4'));
  await t.rejects(engine.dropGeneration('t3', 2), /serving/);
  t.ok(fake.collections.has('ps_t3_g2'));
});

t.test('a canceled reindex drops only the generation it began; stale builds are listed with who began them', async (t) => {
  await engine.upsert('t8', [doc('a')], SETTINGS);
  const generation = await engine.beginGeneration('t8', SETTINGS, 'job_one');
  t.equal(await engine.dropBuild('t8', 'job_other'), null, "another job's cancel drops nothing");
  t.ok(fake.collections.has(`ps_t8_g${generation}`));
  t.same(await engine.staleBuilds(60_000), [], 'a build begun just now is not stale');
  const stale = (await engine.staleBuilds(-60_000)).filter((b) => b.tenantId === 't8');
  t.same(stale, [{ tenantId: 't8', generation, owner: 'job_one' }], 'the building collection, with its job');
  t.equal(await engine.dropBuild('t8', 'job_one'), generation);
  t.notOk(fake.collections.has(`ps_t8_g${generation}`));
  t.ok(fake.collections.has('ps_t8_g1'), 'the serving collection stays');
  t.equal(await engine.dropBuild('t8', 'job_one'), null, 'a second drop finds nothing');
});

t.test('remove deletes by id filter from every live generation', async (t) => {
  const docs = [doc('a'), doc('x,y'), doc('q`t'), doc('keep')];
  await engine.upsert('t4', docs, SETTINGS);
  await engine.writeGeneration('t4', await engine.beginGeneration('t4', SETTINGS), docs);
  const mark = fake.requests.length;
  await engine.remove('t4', ['a', 'x,y', 'q`t']);
  const deletes = fake.since(mark).filter((r) => r.method === 'DELETE');
  t.same(
    deletes.map((r) => `${line(r)} ${r.query.get('filter_by') ?? ''}`.trim()),
    [
      'DELETE /collections/ps_t4_g1/documents id:[a,`x,y`]',
      'DELETE /collections/ps_t4_g1/documents/q%60t',
      'DELETE /collections/ps_t4_g2/documents id:[a,`x,y`]',
      'DELETE /collections/ps_t4_g2/documents/q%60t',
    ],
  );
  t.same([...fake.collections.get('ps_t4_g1')!.docs.keys()], ['keep']);
  t.same([...fake.collections.get('ps_t4_g2')!.docs.keys()], ['keep']);
  await engine.remove('t4', ['gone-already']);
});

t.test('search: filter_by for lists, ranges and booleans; values escaped; sort, paging, typos', async (t) => {
  await engine.upsert(
    't5',
    [doc('a'), doc('b', { brand: 'O`Neil, Co.', facets: { color: ['Dark blue'], weight: 3, wifi: false } }), doc('c', { visible: false })],
    SETTINGS,
  );

  let mark = fake.requests.length;
  const res = await engine.search(
    query('t5', {
      tokens: ['lap', 'to'],
      prefixLast: true,
      sort: 'price_asc',
      offset: 20,
      limit: 10,
      filters: {
        brand: ['Acme', 'O`Neil, Co.'],
        color: ['Red', 'Dark blue'],
        price: { gte: 10, lte: 200 },
        in_stock: true,
        wifi: true,
        weight: { gte: 1, lte: null },
        category: ['c-lap'],
      },
    }),
  );
  const [req] = fake.since(mark);
  t.equal(line(req), 'GET /collections/ps_t5/documents/search', 'searches through the alias');
  const p = Object.fromEntries(req.query);
  t.equal(
    p.filter_by,
    [
      'visible:=true',
      'brand_key:=[acme,`o\u02cbneil, co.`]',
      'f_color:=[Red,`Dark blue`]',
      'price:>=10',
      'price:<=200',
      'in_stock:=true',
      'f_wifi:=true',
      'n_weight:>=1',
      'category_ids:=[c-lap,`lvl:c-lap`]',
    ].join(' && '),
  );
  t.match(p, {
    q: 'lap to',
    query_by: 'name_norm,brand_norm,codes,category_text,attribute_text,name_stem,description_norm',
    query_by_weights: '15,15,12,8,8,4,1',
    num_typos: '2,1,0,1,1,1,1',
    prefix: 'true,true,false,true,true,true,false',
    drop_tokens_threshold: '0',
    sort_by: 'price:asc',
    page: '3',
    per_page: '10',
    include_fields: 'id,card_json,description_json',
  });
  t.equal(res.total, 1, 'only the visible product of brand Acme matches');

  // A brand with a backtick and a comma: written so that Typesense's tokenizer keeps it one value.
  const oneil = await engine.search(query('t5', { filters: { brand: ['O`Neil, Co.'] } }));
  t.same(
    oneil.hits.map((h) => h.id),
    ['b'],
  );
  const blue = await engine.search(query('t5', { filters: { color: ['Dark blue'], wifi: false } }));
  t.same(
    blue.hits.map((h) => h.id),
    ['b'],
  );
  t.same((await engine.search(query('t5', { filters: { color: [''] } }))).total, 0, 'an empty value matches nothing');

  mark = fake.requests.length;
  const all = await engine.search(query('t5', { boost: { inStockFirst: true, popularity: 0, margin: 0 }, matchAny: true, tokens: ['laptop', 'zzz'] }));
  const q2 = Object.fromEntries(fake.since(mark)[0].query);
  t.equal(q2.sort_by, '_eval(in_stock:true):desc,_text_match:desc,popularity:desc');
  t.equal(q2.prefix, 'false,false,false,false,false,false,false');
  t.equal(q2.drop_tokens_threshold, '10', 'matchAny lets Typesense drop words');
  t.equal(q2.filter_by, 'visible:=true');
  t.same(all.hits.map((h) => h.id).sort(), ['a', 'b']);
  t.same(
    all.hits.find((h) => h.id === 'a'),
    { id: 'a', score: 1000, card: doc('a').card, description: { en: 'A light laptop' } },
  );

  mark = fake.requests.length;
  await engine.search(query('t5', { terms: [{ alternatives: [['smart', 'watch'], ['smartwatch']] }, { alternatives: [['sm-r800']], exact: true }] }));
  const q3 = Object.fromEntries(fake.since(mark).find((r) => r.path.endsWith('/search'))!.query);
  t.equal(q3.q, 'smart watch sm-r800', "the shopper's own words of each term");
  t.equal(q3.enable_typos_for_alpha_numerical_tokens, 'false', 'exact terms: no typos on codes anywhere');
  mark = fake.requests.length;
  await engine.search(query('t5', { matchAny: true, terms: [{ alternatives: [['iphone']] }, { alternatives: [['iphone', '6']], near: true, exact: true }] }));
  t.equal(fake.since(mark)[0].query.get('q'), 'iphone 6', "a model number's term repeats its word: each word sent once");

  mark = fake.requests.length;
  await engine.search(query('t5', { tokens: ['-cheap', '"x"'] }));
  t.equal(fake.since(mark)[0].query.get('q'), 'cheap x', 'no exclusion or phrase operators reach Typesense');
  mark = fake.requests.length;
  const window = await engine.search(query('t5', { offset: 1, limit: 10, exclude: ['b'], tokens: [] }));
  const q4 = Object.fromEntries(fake.since(mark)[0].query);
  t.match(q4, { offset: '1', limit: '10', filter_by: 'visible:=true && id:!=[b]' }, 'an offset off a page boundary is sent as offset and limit');
  t.notOk('page' in q4);
  t.same(
    window.hits.map((h) => h.id),
    [],
    'the second match of two, but b is excluded',
  );
  const only = await engine.search(
    query('t5', {
      ids: ['a', 'b'],
      tokens: [],
      boost: {
        inStockFirst: false,
        popularity: 0,
        margin: 0,
        shifts: [
          { filters: { brand: ['Acme'] }, factor: 3 },
          { filters: { brand: ['Beta'] }, factor: 0.5 },
        ],
      },
    }),
  );
  const q5 = Object.fromEntries(fake.since(mark)[1].query);
  t.equal(q5.filter_by, 'visible:=true && id:=[a,b]');
  t.equal(
    q5.sort_by,
    '_eval([(brand_key:=[acme]):3, (brand_key:!=[beta]):2]):desc,_text_match:desc,popularity:desc',
    'boosts and a one-list bury as a weighted _eval',
  );
  t.same(only.hits.map((h) => h.id).sort(), ['a', 'b']);
});

t.test('facets: counts, category labels, price stats; disjunctive counts through multi_search', async (t) => {
  await engine.upsert(
    't6',
    [
      doc('a', { price: 100 }),
      doc('b', { brand: 'Beta', price: 50, facets: { color: ['Blue'], weight: 2, wifi: true } }),
      doc('c', { price: 300, inStock: false }),
    ],
    SETTINGS,
  );
  let mark = fake.requests.length;
  const res = await engine.search(query('t6', { facets: ['brand', 'color', 'category', 'category_tree', 'price', 'in_stock', 'wifi'] }));
  const reqs = fake.since(mark);
  t.equal(reqs.length, 1, 'no own filters: one search');
  t.equal(reqs[0].query.get('facet_by'), 'brand,f_color,category_facet,category_tree,price,in_stock,f_wifi');
  t.equal(reqs[0].query.get('max_facet_values'), '200');
  t.same(res.facets.brand, [
    { value: 'Acme', count: 2 },
    { value: 'Beta', count: 1 },
  ]);
  t.same(res.facets.color, [
    { value: 'Red', count: 2 },
    { value: 'Blue', count: 1 },
  ]);
  t.same(res.facets.category, [{ value: 'c-lap', label: { en: 'Laptops', ar: 'لابتوب' }, count: 3 }]);
  t.same(res.facets.category_tree, [
    { value: 'lvl:electronics', label: { en: 'Electronics' }, count: 3 },
    { value: 'lvl:electronics>laptops', label: { en: 'Laptops', ar: 'لابتوب' }, count: 3 },
  ]);
  t.same(res.facets.price, { min: 50, max: 300 });
  t.same(res.facets.in_stock, [
    { value: 'true', count: 2 },
    { value: 'false', count: 1 },
  ]);
  t.same(res.facets.wifi, [{ value: 'true', count: 3 }]);

  mark = fake.requests.length;
  const beta = await engine.search(query('t6', { filters: { brand: ['Beta'], price: { gte: 60 } }, facets: ['brand', 'color', 'price'] }));
  const [multi] = fake.since(mark);
  t.equal(line(multi), 'POST /multi_search');
  const { searches } = JSON.parse(multi.body);
  t.same(
    searches.map((s: Record<string, unknown>) => [s.collection, s.filter_by, s.facet_by, s.per_page]),
    [
      ['ps_t6', 'visible:=true && brand_key:=[beta] && price:>=60', 'f_color', 10],
      ['ps_t6', 'visible:=true && price:>=60', 'brand', 0],
      ['ps_t6', 'visible:=true && brand_key:=[beta]', 'price', 0],
    ],
  );
  t.equal(beta.total, 0);
  t.same(beta.facets.brand, [{ value: 'Acme', count: 2 }], 'brand counts ignore the brand filter');
  t.same(beta.facets.price, { min: 50, max: 50 }, 'price stats ignore the price filter');
  t.same(beta.facets.color, []);
});

t.test('facetsFollowFilters: one search counts every facet under every filter', async (t) => {
  await engine.upsert('t10', [doc('a', { price: 100 }), doc('b', { brand: 'Beta', price: 50, facets: { color: ['Blue'], weight: 2, wifi: true } })], SETTINGS);
  const mark = fake.requests.length;
  const beta = await engine.search(query('t10', { filters: { brand: ['Beta'] }, facets: ['brand', 'color', 'price'], facetsFollowFilters: true }));
  const reqs = fake.since(mark);
  t.equal(reqs.length, 1, 'no extra searches without the own filters');
  t.equal(reqs[0].query.get('filter_by'), 'visible:=true && brand_key:=[beta]');
  t.equal(reqs[0].query.get('facet_by'), 'brand,f_color,price');
  t.same(
    [beta.total, beta.facets.brand, beta.facets.color, beta.facets.price],
    [1, [{ value: 'Beta', count: 1 }], [{ value: 'Blue', count: 1 }], { min: 50, max: 50 }],
  );
  const q = query('t10', { filters: { brand: ['Beta'] }, facets: ['brand', 'color'] });
  t.same(searchPlan({ ...q, facetsFollowFilters: false }), searchPlan(q), 'false plans what an absent option plans');
  t.equal(searchPlan(q).extras.length, 1, 'absent: the brand counts by their own search (disjunctive)');
});

t.test('a merchandising bury on in_stock is a boost of the other stock, in every shape the API takes', async (t) => {
  const sortOf = (filters: Record<string, boolean | string | string[]>, factor: number) =>
    searchPlan(query('t11', { boost: { inStockFirst: false, popularity: 0, margin: 0, shifts: [{ filters, factor }] } })).main.sort_by;
  // Weight 1: a bury divides by 2, a boost multiplies by 2.
  for (const value of [true, 'true', ['true']]) {
    t.equal(
      sortOf({ in_stock: value }, 0.5),
      '_eval([(in_stock:=false):2]):desc,_text_match:desc,popularity:desc',
      `bury in_stock ${JSON.stringify(value)}: out of stock first`,
    );
    t.equal(sortOf({ in_stock: value }, 2), '_eval([(in_stock:=true):2]):desc,_text_match:desc,popularity:desc', `boost in_stock ${JSON.stringify(value)}`);
  }
  for (const value of [false, 'false', ['false']]) {
    t.equal(
      sortOf({ in_stock: value }, 0.5),
      '_eval([(in_stock:=true):2]):desc,_text_match:desc,popularity:desc',
      `bury in_stock ${JSON.stringify(value)}: in stock first`,
    );
  }
  t.equal(sortOf({ brand: ['Beta'] }, 0.5), '_eval([(brand_key:!=[beta]):2]):desc,_text_match:desc,popularity:desc', 'a one-list bury as before');
});

t.test('attributes as stores send them: numbers and text mixed, ranges over the numbers, values as their facet buckets show them', async (t) => {
  const settings: IndexSettings = { facetFields: ['ram', 'size', 'weight'].map((name) => ({ name, type: 'string' as const })), locales: ['en'] };
  await engine.upsert(
    't9',
    [
      doc('s1', { facets: { ram: ['8GB'], size: ['42'], weight: 9 } }),
      doc('s2', { facets: { ram: ['16GB'], size: ['44', '45'], weight: 9.5 } }),
      doc('s3', { facets: { size: ['XL'], weight: 12 } }),
      doc('s4', { facets: { size: ['٥٢'], weight: ['٣٫٥'] } }),
    ],
    settings,
  );
  const ids = async (filters: EngineQuery['filters']) => (await engine.search(query('t9', { filters }))).hits.map((h) => h.id).sort();
  t.same(await ids({ ram: { gte: 8 } }), [], 'a range over text values: no error, nothing in it');
  t.same(await ids({ size: { gte: 43 } }), ['s2', 's4'], '"٥٢" (Arabic-Indic digits) is 52');
  t.same(await ids({ size: { gte: 50 } }), ['s4']);
  t.same(await ids({ weight: { lte: 9.5 } }), ['s1', 's2', 's4'], '"٣٫٥" is 3.5');
  t.same(await ids({ weight: ['9', '12'] }), ['s1', 's3'], 'a number filters by its text');
  t.same(await ids({ weight: ['9.0'] }), ['s1'], 'a number in any writing filters by its value: 9.0 is 9');
  t.same(await ids({ weight: ['9.50', '1.2e1'] }), ['s2', 's3']);
  t.same(await ids({ weight: '-0' }), [], 'no product weighs 0');
  t.same(await ids({ weight: ['0x9'] }), [], 'a hexadecimal literal is text');
  t.same(await ids({ size: ['42.0'] }), ['s1'], 'the text "42" is the plain writing of 42.0, as in the Postgres engine');
  const counts = (await engine.search(query('t9', { facets: ['weight'] }))).facets.weight as Array<{ value: string }>;
  t.same(counts.map((b) => b.value).sort(), ['12', '9', '9.5', '٣٫٥']);
});

t.test('a tenant never indexed searches empty; dropTenant removes alias and collections', async (t) => {
  t.same(await engine.search(query('nobody', { facets: ['brand', 'price'] })), { total: 0, hits: [], facets: { brand: [], price: { min: null, max: null } } });
  t.same(await engine.search(query('nobody', { facets: ['brand'], filters: { brand: ['x'] } })), { total: 0, hits: [], facets: { brand: [] } });
  await engine.upsert('t7', [doc('a')], SETTINGS);
  await engine.beginGeneration('t7', SETTINGS);
  await engine.dropTenant('t7');
  t.notOk(fake.aliases.has('ps_t7'));
  t.same(
    [...fake.collections.keys()].filter((n) => n.startsWith('ps_t7_')),
    [],
  );
  t.equal((await engine.search(query('t7'))).total, 0);
  await engine.dropTenant('t7');
});

t.test('a 404 other than a missing alias is an error, not an empty result', async (t) => {
  await engine.upsert('t8', [doc('a')], SETTINGS);
  await t.rejects(engine.search(query('t8', { facets: ['not_mapped'] })), /facet field named `f_not_mapped`/);
});

t.test('every request the adapter sent conforms to the Typesense 30.0 OpenAPI document', async (t) => {
  const problems = fake.requests.flatMap((r) => checker.problems(r));
  t.same(problems, []);
  const operations = new Set(fake.requests.map((r) => checker.operationId(r)));
  for (const op of [
    'getAlias',
    'upsertAlias',
    'deleteAlias',
    'getCollections',
    'createCollection',
    'deleteCollection',
    'importDocuments',
    'exportDocuments',
    'getDocument',
    'deleteDocuments',
    'deleteDocument',
    'searchCollection',
    'multiSearch',
  ]) {
    t.ok(operations.has(op), `covered: ${op}`);
  }
});

t.test('the OpenAPI check catches what it should', async (t) => {
  const req = (method: string, path: string, qs = '', body = '', contentType = 'application/json'): RecordedRequest => ({
    method,
    path,
    query: new URLSearchParams(qs),
    headers: { 'x-typesense-api-key': 'k', 'content-type': contentType },
    body,
  });
  t.match(checker.problems(req('GET', '/collections/c/documents/search', 'q=a&qery_by=b&page=two')), [
    /unknown query parameter qery_by/,
    /"two" is not a integer/,
  ]);
  t.match(checker.problems(req('POST', '/collections', '', JSON.stringify({ name: 'c', fields: [{ name: 'a', typ: 'string', facet: 'yes' }] }))), [
    /missing required property type/,
    /body\.fields\[0\]\.facet: expected boolean/,
    /unknown property typ/,
  ]);
  t.match(checker.problems(req('PUT', '/aliases/a', '', JSON.stringify({ collection: 'x' }))), [
    /missing required property collection_name/,
    /unknown property collection/,
  ]);
  t.match(checker.problems(req('DELETE', '/collections/c/documents', 'batch_size=10')), [/missing required query parameter filter_by/]);
  t.match(checker.problems(req('POST', '/collections/c/documents/import', 'action=merge', 'x', 'text/csv')), [
    /"merge" is not one of/,
    /Content-Type text\/csv/,
  ]);
  t.match(checker.problems(req('POST', '/multi_search', '', JSON.stringify({ searches: [{ collection: 'c', q: 'x', sort: 'price:asc' }] }))), [
    /unknown property sort/,
  ]);
  t.same(
    checker.problems(req('POST', '/multi_search', '', JSON.stringify({ searches: [{ collection: 'c', q: 'x', synonym_sets: 's' }] }))),
    [],
    'synonym_sets: allowed, read as in a single search',
  );
  t.match(checker.problems(req('POST', '/multi_search', '', JSON.stringify({ searches: [{ collection: 'c', q: 'x', synonym_set: 's' }] }))), [
    /unknown property synonym_set$/,
  ]);
  t.match(checker.problems(req('PUT', '/synonym_sets/s', '', JSON.stringify({ items: [{ id: 'a', root: 'x' }] }))), [/missing required property synonyms/]);
  t.match(checker.problems(req('GET', '/nope')), [/no path template matches/]);
  t.match(checker.problems(req('PATCH', '/aliases/a')), [/has no patch operation/]);
});

t.test('against a real Typesense server', { skip: process.env.TYPESENSE_URL ? false : 'TYPESENSE_URL not set' }, async (t) => {
  const real = new TypesenseEngine({
    url: process.env.TYPESENSE_URL!,
    apiKey: process.env.TYPESENSE_API_KEY ?? '',
    collectionPrefix: `pstest_${randomUUID().slice(0, 8)}`,
  });
  const tenant = 'it';
  t.teardown(() => real.dropTenant(tenant));
  await real.upsert(
    tenant,
    [
      doc('p1', { nameNorm: 'thinkpad laptop', price: 900 }),
      doc('p2', {
        nameNorm: 'galaxy phone',
        nameStem: 'galaxy phone',
        categoryText: 'electronics phones',
        descriptionNorm: 'a phone',
        attributeText: 'black',
        brand: 'Samsung',
        brandNorm: 'samsung',
        price: 300,
        facets: { color: ['Black'], weight: 0.2, wifi: true },
      }),
      doc('p3', { nameNorm: 'oneil laptop sleeve', brand: 'O`Neil, Co.', brandNorm: 'o`neil, co.', price: 40, inStock: false }),
    ],
    SETTINGS,
  );
  const laptops = await real.search(query(tenant, { tokens: ['laptop'], facets: ['brand', 'price', 'category'] }));
  t.same(laptops.hits.map((h) => h.id).sort(), ['p1', 'p3']);
  t.same(laptops.facets.price, { min: 40, max: 900 });
  t.same(laptops.hits.find((h) => h.id === 'p1')?.card, doc('p1').card);
  t.same(
    (await real.search(query(tenant, { filters: { brand: ['O`Neil, Co.'] } }))).hits.map((h) => h.id),
    ['p3'],
  );
  t.same(
    (await real.search(query(tenant, { filters: { price: { gte: 100 } }, sort: 'price_desc' }))).hits.map((h) => h.id),
    ['p1', 'p2'],
  );
  const disjunctive = await real.search(query(tenant, { filters: { brand: ['samsung'] }, facets: ['brand'] }));
  t.equal(disjunctive.total, 1);
  t.equal((disjunctive.facets.brand as unknown[]).length, 3, 'brand counts ignore the brand filter');
  await t.rejects(real.upsert(tenant, [doc('p4', { price: Number.NaN })], SETTINGS), /p4/);

  const generation = await real.beginGeneration(tenant, SETTINGS);
  await real.writeGeneration(tenant, generation, [doc('p1'), doc('p2')]);
  await real.swapGeneration(tenant, generation);
  t.same((await real.search(query(tenant))).hits.map((h) => h.id).sort(), ['p1', 'p2']);
  await real.remove(tenant, ['p2']);
  t.same(
    (await real.search(query(tenant))).hits.map((h) => h.id),
    ['p1'],
  );
  await real.dropTenant(tenant);
  t.equal((await real.search(query(tenant))).total, 0);
});
