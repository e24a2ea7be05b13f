import t from 'tap';
import type { EngineQuery, EngineResult, SearchDoc } from '../../shared/engines/lexical/port.js';
import { PLAIN_SETTINGS as SETTINGS, engineStore, searchDoc } from '../helpers/engine-store.js';

// Matching any word, the statement scores (ts_rank_cd) only the rows whose coverage lets them reach
// the page; every page must still be the same rows, scores and order as scoring every match (a page
// of 100 here: no row can be left out, so every row is scored).
const tenantId = 'ten_anywordbounds';
const { db, engine } = await engineStore(t, tenantId);

// 90 products: "lamp" in most names, "brass" in a few names and some descriptions, both in a few;
// stock, popularity, margin, name lengths and categories vary, so every factor of relevance moves.
function doc(i: number): SearchDoc {
  const id = `p${String(i).padStart(3, '0')}`;
  const words = [i % 9 === 0 ? 'brass' : '', i % 7 !== 3 ? 'lamp' : 'shade', i % 4 === 0 ? 'table reading light large' : '', `model ${id}`];
  const name = words.filter(Boolean).join(' ');
  const category = i % 3 === 0 ? 'c-lamps' : 'c-decor';
  return searchDoc(id, name, {
    categoryIds: [category],
    categoryPaths: [[{ id: category, label: { en: category } }]],
    descriptionNorm: i % 5 === 0 ? 'solid brass base with a lamp shade' : 'a light for the room',
    price: 10 + i,
    inStock: i % 6 !== 0,
    popularity: (i * 37) % 23,
    margin: ((i * 11) % 10) / 10,
    createdAt: 1_700_000_000_000 + i,
  });
}
await engine.upsert(
  tenantId,
  Array.from({ length: 90 }, (_, i) => doc(i)),
  SETTINGS,
);

const anyWord: EngineQuery = {
  tenantId,
  lang: 'en',
  tokens: ['brass', 'lamp'],
  terms: [
    { alternatives: [['brass']], weight: 3.1 },
    { alternatives: [['lamp']], weight: 0.4 },
  ],
  matchAny: true,
  offset: 0,
  limit: 5,
  facets: ['in_stock'],
  boost: { inStockFirst: true, popularity: 0.3, margin: 0.2, categories: ['c-lamps'], heads: ['lamp'], openers: ['brass'], nameWords: 5 },
};
const page = (r: EngineResult) => r.hits.map((h) => ({ id: h.id, score: h.score }));

// Which statements took the bounded form.
let bounded = 0;
db.on('query', (q: { sql: string }) => {
  if (/cand AS/.test(q.sql)) bounded++;
});

for (const [label, q] of [
  ['in stock first, every factor', anyWord],
  ['no stock order, no business signals', { ...anyWord, boost: { ...anyWord.boost!, inStockFirst: false, popularity: 0, margin: 0, categories: [] } }],
  ['the score alone', { ...anyWord, lang: undefined, boost: { inStockFirst: false, popularity: 0, margin: 0, heads: ['lamp'], nameWords: 5 } }],
  ['a late filter', { ...anyWord, filters: { in_stock: true } }],
] as Array<[string, EngineQuery]>) {
  t.test(`pages of a bounded any-word search equal scoring every match: ${label}`, async (t) => {
    const every = await engine.search({ ...q, offset: 0, limit: 100 });
    t.ok(every.total > 40, `many matches (${every.total})`);
    t.ok(every.hits[0].score >= 2, 'the rare word leads: a full unit of coverage');
    const before = bounded;
    const offsets = Array.from({ length: Math.ceil(every.total / 5) }, (_, i) => i * 5);
    for (const offset of offsets) {
      const one = await engine.search({ ...q, offset });
      t.same(page(one), page(every).slice(offset, offset + 5), `page at ${offset}`);
      t.equal(one.total, every.total);
      t.same(one.facets, every.facets);
    }
    t.equal(bounded - before, offsets.length, 'each page took the bounded statement');
  });
}

t.test('another sort or merchandising shifts: every match scored as before', async (t) => {
  const before = bounded;
  const byPrice = await engine.search({ ...anyWord, sort: 'price_asc', offset: 5 });
  const byPriceAll = await engine.search({ ...anyWord, sort: 'price_asc', limit: 100 });
  t.same(page(byPrice), page(byPriceAll).slice(5, 10));
  const shifted = await engine.search({ ...anyWord, boost: { ...anyWord.boost!, shifts: [{ filters: { in_stock: true }, factor: 0.5 }] } });
  const shiftedAll = await engine.search({ ...anyWord, limit: 100, boost: { ...anyWord.boost!, shifts: [{ filters: { in_stock: true }, factor: 0.5 }] } });
  t.same(page(shifted), page(shiftedAll).slice(0, 5));
  t.equal(bounded, before, 'shifts and other sorts are not bounded');
});
