import t from 'tap';
import { TypesenseEngine } from '../../shared/engines/lexical/typesense.engine.js';
import { MAX_COMBINATIONS } from '../../shared/engines/lexical/typesense.alternatives.js';
import type { EngineQuery, IndexSettings, QueryTerm, SearchDoc } from '../../shared/engines/lexical/port.js';
import { typesenseChecker } from './typesense-checker.js';
import { FakeTypesense } from './typesense-fake.js';
import { expansions } from './typesense-fake-text.js';

/**
 * A term's alternatives (the Arabic bare word, a typo correction, a synonym) reach Typesense: a
 * product found only by a second alternative comes back, counted once in the total and facets.
 * The fake matches `q` as Typesense does (typesense-fake-text.ts).
 */

const SETTINGS: IndexSettings = { facetFields: [{ name: 'color', type: 'string' }], locales: ['en', 'ar'] };

function doc(id: string, name: string, brand: string, color = 'Red'): SearchDoc {
  const card = { id, name: { en: name }, url: null, image_url: null, price: '10', sale_price: null, currency: 'USD', in_stock: true, brand, category: null };
  return {
    id,
    name: { en: name },
    nameNorm: name,
    nameStem: name,
    brand,
    brandNorm: brand.toLowerCase(),
    codes: [],
    categoryIds: [],
    categoryPaths: [],
    categoryText: '',
    attributeText: '',
    descriptionNorm: '',
    facets: { color: [color] },
    price: 10,
    inStock: true,
    visible: true,
    popularity: 1,
    margin: null,
    createdAt: 1_700_000_000_000,
    card,
  };
}

const query = (tenantId: string, terms: QueryTerm[], over: Partial<EngineQuery> = {}): EngineQuery => ({
  tenantId,
  tokens: terms.map((term) => term.alternatives[0].join(' ')),
  terms,
  offset: 0,
  limit: 10,
  ...over,
});
const ids = (r: { hits: Array<{ id: string }> }) => r.hits.map((h) => h.id).sort();

const fake = await new FakeTypesense('test-key', { matchText: true }).start();
const engine = new TypesenseEngine({ url: fake.url, apiKey: 'test-key', collectionPrefix: 'ps' });
t.teardown(() => fake.close());

await engine.upsert('ar', [doc('shirt', 'قميص قطن ابيض', 'Nile'), doc('trousers', 'بنطال جينز', 'Nile'), doc('bag', 'حقيبة جلد', 'Atlas')], SETTINGS);
await engine.upsert(
  'en',
  [
    doc('stand', 'laptop stand', 'Acme', 'Black'),
    doc('typo', 'labtob stand', 'Beta', 'Red'),
    doc('both', 'labtob laptop stand', 'Acme', 'Red'),
    doc('case', 'laptop case', 'Acme', 'Black'),
  ],
  SETTINGS,
);

t.test('the fake matches as Typesense does: no typo reaches the bare word or a two-typo correction', async (t) => {
  const old = async (tenant: string, q: string, prefix = false) =>
    ids(await engine.search({ tenantId: tenant, tokens: [q], prefixLast: prefix, offset: 0, limit: 10 }));
  t.same(await old('ar', 'القميص'), [], '"القميص" is 4 bytes from "قميص": past 2 typos');
  t.same(await old('ar', 'القمي', true), [], 'and "القمي" is no prefix of it');
  t.same(await old('ar', 'قميص'), ['shirt']);
  t.same(await old('ar', 'قمي', true), ['shirt'], 'a prefix of the last word');
  t.same(await old('en', 'labtob'), ['both', 'typo'], '"labtob" is two typos from "laptop": a 6-byte word has 1');
  t.same(await old('en', 'laptpo'), ['both', 'case', 'stand'], 'a transposition is one typo');
  t.same(
    expansions(
      ['a', 'b'],
      [
        { id: '1', root: 'a', synonyms: ['x y'] },
        { id: '2', root: 'b', synonyms: ['z'] },
      ],
    ).map((e) => e.join(' ')),
    ['a b', 'a z', 'x y b', 'x y z'],
    'every combination',
  );
});

t.test('Arabic: the word typed with the article finds the bare word, as typed and as a prefix', async (t) => {
  let mark = fake.requests.length;
  const typed = await engine.search(query('ar', [{ alternatives: [['القميص'], ['قميص']] }], { facets: ['brand'] }));
  t.same(ids(typed), ['shirt'], 'found only by the bare word');
  t.equal(typed.total, 1);
  t.same(typed.facets.brand, [{ value: 'Nile', count: 1 }]);
  const [put, search] = fake.since(mark);
  t.match(put, { method: 'PUT', path: /^\/synonym_sets\/ps_ar_alt_[0-9a-f]{16}$/ });
  t.same(JSON.parse(put.body), { items: [{ id: 'term-0', root: 'القميص', synonyms: ['قميص'] }] }, 'one one-way item: the typed word its root');
  t.equal(search.query.get('q'), 'القميص', "q keeps the shopper's own word");
  t.equal(search.query.get('synonym_sets'), decodeURIComponent(put.path.split('/')[2]), 'the search names the set');

  mark = fake.requests.length;
  const asYouType = await engine.search(query('ar', [{ alternatives: [['القمي'], ['قمي']] }], { prefixLast: true }));
  t.same(ids(asYouType), ['shirt'], '"القمي" as you type: the bare "قمي" is a prefix of "قميص"');
  t.equal(fake.since(mark)[1].query.get('prefix')?.split(',')[0], 'true');

  const corrected = await engine.search(query('ar', [{ alternatives: [['القميض'], ['قميص']] }, { alternatives: [['قطن']] }]));
  t.same(ids(corrected), ['shirt'], 'the correction of the bare word, beside a word as typed');
});

t.test('English: a correction finds what the typed word cannot; a product both find counts once', async (t) => {
  const res = await engine.search(query('en', [{ alternatives: [['labtob'], ['laptop']] }, { alternatives: [['stand']] }], { facets: ['brand', 'color'] }));
  t.same(ids(res), ['both', 'stand', 'typo'], '"stand" only by the correction, "typo" only by the typed word, "both" by both');
  t.equal(res.total, 3, 'the total counts "both" once');
  t.same(res.facets.brand, [
    { value: 'Acme', count: 2 },
    { value: 'Beta', count: 1 },
  ]);
  t.same(res.facets.color, [
    { value: 'Red', count: 2 },
    { value: 'Black', count: 1 },
  ]);

  // Disjunctive counts: every search of the multi_search names the set, so the brand counts (without the brand filter) see the alternatives too.
  const mark = fake.requests.length;
  const acme = await engine.search(
    query('en', [{ alternatives: [['labtob'], ['laptop']] }, { alternatives: [['stand']] }], { facets: ['brand', 'color'], filters: { brand: ['Acme'] } }),
  );
  const reqs = fake.since(mark);
  t.same(
    reqs.map((r) => `${r.method} ${r.path}`),
    ['POST /multi_search'],
    'the set is already written: one round trip',
  );
  const { searches } = JSON.parse(reqs[0].body);
  t.equal(searches.length, 2);
  t.ok(
    searches.every((s: Record<string, unknown>) => s.synonym_sets === searches[0].synonym_sets && String(s.synonym_sets).startsWith('ps_en_alt_')),
    'main and facet searches name the same set',
  );
  t.same(ids(acme), ['both', 'stand']);
  t.equal(acme.total, 2);
  t.same(acme.facets.brand, [
    { value: 'Acme', count: 2 },
    { value: 'Beta', count: 1 },
  ]);
});

t.test('a synonym of several words, and the combinations of two terms', async (t) => {
  const res = await engine.search(query('en', [{ alternatives: [['notebook'], ['laptop']] }, { alternatives: [['holder'], ['stand'], ['case']] }]));
  t.same(ids(res), ['both', 'case', 'stand'], 'laptop stand and laptop case: neither word typed');
  const multi = await engine.search(
    query('en', [
      {
        alternatives: [
          ['computer', 'sleeve'],
          ['laptop', 'case'],
        ],
      },
    ]),
  );
  t.same(ids(multi), ['case']);
});

t.test('combinations are capped; a query without alternatives sends no set', async (t) => {
  const eight = (w: string) => Array.from({ length: 8 }, (_, i) => [`${w}${i}`]);
  let mark = fake.requests.length;
  await engine.search(query('en', [{ alternatives: eight('a') }, { alternatives: eight('b') }, { alternatives: eight('c') }]));
  const { items } = JSON.parse(fake.since(mark)[0].body) as { items: Array<{ root: string; synonyms: string[] }> };
  t.same(
    items.map((i) => [i.root, i.synonyms.length]),
    [
      ['a0', 7],
      ['b0', 3],
    ],
    `8 x 4 = ${MAX_COMBINATIONS} combinations: the third term's alternatives are left out`,
  );
  t.ok(items.reduce((n, i) => n * (i.synonyms.length + 1), 1) <= MAX_COMBINATIONS);

  mark = fake.requests.length;
  await engine.search(query('en', [{ alternatives: [['laptop']] }]));
  const plain = fake.since(mark);
  t.same(
    plain.map((r) => `${r.method} ${r.path}`),
    ['GET /collections/ps_en/documents/search'],
  );
  t.notOk(plain[0].query.has('synonym_sets'));
});

t.test('a set deleted since it was written is written again', async (t) => {
  const terms = [{ alternatives: [['القميص'], ['قميص']] }];
  await engine.search(query('ar', terms));
  const name = [...fake.synonymSets.keys()].find((n) => n.startsWith('ps_ar_alt_'))!;
  fake.synonymSets.clear();
  const mark = fake.requests.length;
  t.same(ids(await engine.search(query('ar', terms, { facets: ['brand'], filters: { brand: ['Nile'] } }))), ['shirt']);
  t.same(
    fake.since(mark).map((r) => `${r.method} ${r.path}`),
    ['POST /multi_search', `PUT /synonym_sets/${name}`, 'POST /multi_search'],
  );
  fake.synonymSets.clear();
  const again = fake.requests.length;
  t.same(ids(await engine.search(query('ar', terms))), ['shirt'], 'a single search too');
  t.same(
    fake.since(again).map((r) => `${r.method} ${r.path}`),
    ['GET /collections/ps_ar/documents/search', `PUT /synonym_sets/${name}`, 'GET /collections/ps_ar/documents/search'],
  );
});

t.test("dropTenant deletes the tenant's sets, not another tenant's", async (t) => {
  await engine.upsert('ar_alt', [doc('x', 'قميص', 'Nile')], SETTINGS);
  await engine.search(query('ar_alt', [{ alternatives: [['القميص'], ['قميص']] }]));
  await engine.search(query('ar', [{ alternatives: [['القميص'], ['قميص']] }]));
  await engine.dropTenant('ar');
  t.same(
    [...fake.synonymSets.keys()].filter((n) => n.startsWith('ps_ar')).map((n) => n.replace(/[0-9a-f]{16}$/, '…')),
    ['ps_ar_alt_alt_…'],
  );
  const mark = fake.requests.length;
  await engine.upsert('ar', [doc('shirt', 'قميص', 'Nile')], SETTINGS);
  t.same(ids(await engine.search(query('ar', [{ alternatives: [['القميص'], ['قميص']] }]))), ['shirt'], 'written again after the drop');
  t.ok(fake.since(mark).some((r) => r.method === 'PUT' && r.path.startsWith('/synonym_sets/ps_ar_alt_')));
});

t.test('a process keeps at most maxAlternativeSets sets: the least recently used is deleted, and written again when needed', async (t) => {
  const small = new TypesenseEngine({ url: fake.url, apiKey: 'test-key', collectionPrefix: 'ps', maxAlternativeSets: 2 });
  await small.upsert('lru', [doc('shirt', 'shirt cotton', 'Nile'), doc('bag', 'bag leather', 'Atlas'), doc('hat', 'hat straw', 'Atlas')], SETTINGS);
  const typo = (typed: string, word: string) => query('lru', [{ alternatives: [[typed], [word]] }]);
  const sets = () => [...fake.synonymSets.keys()].filter((n) => n.startsWith('ps_lru_alt_')).length;
  t.same(ids(await small.search(typo('shirr', 'shirt'))), ['shirt']);
  t.same(ids(await small.search(typo('bagg', 'bag'))), ['bag']);
  t.same(ids(await small.search(typo('shirr', 'shirt'))), ['shirt'], 'shirr used again: bagg is now the least recent');
  t.equal(sets(), 2);
  const mark = fake.requests.length;
  t.same(ids(await small.search(typo('hatt', 'hat'))), ['hat']);
  await new Promise((r) => setTimeout(r, 50));
  t.equal(sets(), 2, 'still two sets at Typesense');
  const deleted = fake.since(mark).filter((r) => r.method === 'DELETE');
  t.equal(deleted.length, 1, 'one set deleted');
  t.same(ids(await small.search(typo('shirr', 'shirt'))), ['shirt'], 'the kept one still answers');
  const again = fake.requests.length;
  t.same(ids(await small.search(typo('bagg', 'bag'))), ['bag'], 'the deleted one is written again');
  t.ok(
    fake.since(again).some((r) => r.method === 'PUT' && deleted[0].path === r.path),
    'under the same name',
  );
  await small.dropTenant('lru');
});

t.test('every request conforms to the Typesense 30.0 OpenAPI document', async (t) => {
  t.same(
    fake.requests.flatMap((r) => typesenseChecker.problems(r)),
    [],
  );
  const operations = new Set(fake.requests.map((r) => typesenseChecker.operationId(r)));
  for (const op of ['upsertSynonymSet', 'retrieveSynonymSets', 'deleteSynonymSet', 'searchCollection', 'multiSearch'])
    t.ok(operations.has(op), `covered: ${op}`);
});
