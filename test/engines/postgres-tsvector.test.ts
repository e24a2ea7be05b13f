import t from 'tap';
import { createTestDatabase } from '../helpers/db.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { PostgresEngine } from '../../shared/engines/lexical/postgres.engine.js';
import { TsvectorLiterals } from '../../shared/engines/lexical/postgres.tsvector.js';
import { TSV_SQL } from '../../shared/engines/lexical/postgres.sql.js';
import type { SearchDoc } from '../../shared/engines/lexical/port.js';

// The tsvector literals built in the indexing process are what Postgres's to_tsvector computes
// (TSV_SQL), lexeme for lexeme, position for position, weight for weight; texts they cannot
// reproduce are left to TSV_SQL.
const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 2 });
t.teardown(async () => {
  await db.destroy();
  await database.drop();
});

type Fields = Pick<SearchDoc, 'nameNorm' | 'brandNorm' | 'codes' | 'categoryText' | 'attributeText' | 'nameStem' | 'descriptionNorm'>;
const fields = (text: string, over: Partial<Fields> = {}): Fields => ({
  nameNorm: text,
  brandNorm: null,
  codes: [],
  categoryText: '',
  attributeText: '',
  nameStem: '',
  descriptionNorm: '',
  ...over,
});

/** Postgres's own tsvector of each document (TSV_SQL) and the literal's, both as text. */
async function compare(docs: Fields[], literals: Array<string | null>): Promise<Array<{ sql: string; literal: string | null }>> {
  const rows = docs.map((d, i) => ({
    n: i,
    lit: literals[i],
    name_norm: d.nameNorm,
    brand_norm: d.brandNorm,
    codes: d.codes,
    category_text: d.categoryText,
    attribute_text: d.attributeText,
    name_stem: d.nameStem,
    description_norm: d.descriptionNorm,
  }));
  const { rows: out } = await db.raw(
    `SELECT (${TSV_SQL})::text AS sql, v.lit::tsvector::text AS literal
       FROM jsonb_to_recordset(?::jsonb) AS v(lit text, name_norm text, brand_norm text, codes text[], category_text text,
            attribute_text text, name_stem text, description_norm text, n int) ORDER BY n`,
    [JSON.stringify(rows)],
  );
  return out;
}

const TRICKY = [
  'wi-fi usb-c 2-in-1 i7-8550u a-1 1-a -5 +5 x- -x --a',
  '15.6" 3.5mm 1.2.3 1,000 0.5 .5 5. 1e5 12e3x 5e e5 1/2 ½ 3x4 10x20cm',
  'foo@bar.com a@b x.com http://x.com/a?b=1&c=2 https://www.example.org/p/q.html ftp://h www.a.b',
  "don't women's o'neil l'oreal rock'n'roll 'quoted' ''",
  './ab ~b /usr/lib c:\\windows\\x.dll ~/x .hidden a/b/c',
  'شاشه سامسونج ٣٫٥ ايفون١٢ iphoneايفون هاتف-ذكي ﻻ ٱ',
  'a & b &amp; c&d &#123; ;&lt; & x',
  '(black) [red] {x} "q" a,b a;b a:b a_b a=b a|b a^b a`b a$b a%b a#b a*b a!b a?b',
  '× • “x” ‘y’ – — ° ® ™ ± μ ø я中文 ß é',
  '  leading spaces and   inner  spaces ',
  '',
];

t.test('tricky texts, each in every field and all together, equal to_tsvector', async (t) => {
  const literals = new TsvectorLiterals(db);
  const docs: Fields[] = [];
  for (const text of TRICKY) {
    docs.push(fields(text));
    docs.push(fields('', { brandNorm: text, codes: [text, 'sku-1'] }));
    docs.push(fields('x', { categoryText: text, attributeText: text }));
    docs.push(fields(text, { nameStem: text, descriptionNorm: `${text} ${text}` }));
  }
  docs.push(fields(TRICKY.join(' '), { descriptionNorm: TRICKY.join(' '), categoryText: TRICKY.slice(2).join(' ') }));
  const lits = await literals.of(docs);
  const out = await compare(docs, lits);
  t.equal(lits.filter((l) => l === null).length, 0, 'every text built here');
  t.same(
    out.map((r) => r.literal),
    out.map((r) => r.sql),
  );
  // A second pass reads the chunks it holds: the same literals.
  t.same(await literals.of(docs), lits);
});

t.test('what it cannot reproduce is left to TSV_SQL', async (t) => {
  const literals = new TsvectorLiterals(db);
  const docs = [
    fields('a <b class="x y">tag</b> c'),
    fields('x', { descriptionNorm: 'y'.repeat(600) }),
    fields('x', { descriptionNorm: Array(300).fill('same').join(' ') }),
    fields('x', { descriptionNorm: Array(17_000).fill('w').join(' ') }),
  ];
  t.same(await literals.of(docs), [null, null, null, null]);
});

t.test('random texts of parser-relevant pieces equal to_tsvector (seeded)', async (t) => {
  const pieces = [
    ...'abex1209'.split(''),
    'ab',
    'http',
    'www',
    'com',
    'ا',
    'ايفون',
    'é',
    'я',
    '中',
    ...'!"#$%&\'()*+,-./:;=>?@[\\]^_`{|}~'.split(''),
    '×',
    '–',
    '°',
    '&amp;',
    '//',
    '1.5',
    '-1',
    'a-b',
    'x@y.com',
    'http://a.b/c',
    '~/x',
    '.x',
    '1e5',
    ' ',
    ' ',
    ' ',
    '  ',
  ];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const text = (n: number) => Array.from({ length: Math.floor(random() * n) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
  const docs = Array.from({ length: 1500 }, () =>
    fields(text(12), {
      brandNorm: random() < 0.3 ? null : text(4),
      codes: random() < 0.5 ? [] : [text(5), text(3)],
      categoryText: text(8),
      attributeText: text(10),
      nameStem: text(10),
      descriptionNorm: text(40),
    }),
  );
  const literals = new TsvectorLiterals(db);
  const out = await compare(docs, await literals.of(docs));
  t.equal(out.filter((r) => r.literal === null).length, 0);
  t.equal(out.filter((r) => r.literal !== r.sql).length, 0, 'no literal differs');
});

t.test('the engine stores what TSV_SQL computes, built here or in SQL', async (t) => {
  const engine = new PostgresEngine(db);
  const tenantId = 'ten_tsv';
  await db('tenants').insert({ id: tenantId, name: 'tsv', locales: ['en'], default_locale: 'en' });
  const texts = [...TRICKY, 'a <b>tag</b> left to sql'];
  const docs: SearchDoc[] = texts.map((text, i) => ({
    id: `p${i}`,
    name: { en: text },
    ...fields(text, { nameStem: text, categoryText: 'cat', attributeText: text, descriptionNorm: text, codes: [`c-${i}`], brandNorm: 'acme' }),
    brand: 'Acme',
    categoryIds: [],
    categoryPaths: [],
    facets: {},
    price: 1,
    inStock: true,
    visible: true,
    popularity: 0,
    margin: null,
    createdAt: 1_700_000_000_000,
    version: 1,
    card: {
      id: `p${i}`,
      name: { en: text },
      url: null,
      image_url: null,
      price: '1',
      sale_price: null,
      currency: 'USD',
      in_stock: true,
      brand: 'Acme',
      category: null,
    },
  }));
  await engine.upsert(tenantId, docs, { facetFields: [], locales: ['en'] });
  const stored = await db('search_docs')
    .where({ tenant_id: tenantId })
    .orderByRaw('product_id::text COLLATE "C"')
    .select(db.raw('product_id, tsv::text AS tsv'));
  const byId = new Map(stored.map((r: { product_id: string; tsv: string }) => [r.product_id, r.tsv]));
  const expected = await compare(
    docs,
    docs.map(() => null),
  );
  t.same(
    docs.map((d) => byId.get(d.id)),
    expected.map((r) => r.sql),
  );
  const r = await engine.search({ tenantId, tokens: ['wi', 'fi'], terms: [{ alternatives: [['wi', 'fi']], phrase: true }], offset: 0, limit: 5 });
  t.same(
    r.hits.map((h) => h.id),
    ['p0'],
    'a phrase matches by the positions of the literal',
  );
});
