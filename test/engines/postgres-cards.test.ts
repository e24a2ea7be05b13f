import t from 'tap';
import { migrationSource } from '../../shared/platform/db/migrations/index.js';
import type { EngineQuery, SearchDoc } from '../../shared/engines/lexical/port.js';
import { PLAIN_SETTINGS as SETTINGS, engineStore, searchDoc } from '../helpers/engine-store.js';

// A document's card and description live in search_cards (migration 026), read for a page's rows
// only: every write, version guard and delete of search_docs must hold for them alike. The same
// migration keeps the name's word count (name_words) that the name-length factor reads.
const tenantId = 'ten_cards';
const { db, engine } = await engineStore(t, tenantId);

const doc = (id: string, version: number, label: string): SearchDoc =>
  searchDoc(id, `lamp ${id}`, {
    descriptionNorm: 'a desk lamp',
    description: { en: `about ${label}` },
    version,
    card: { id, name: { en: label }, url: null, image_url: null, price: '10', sale_price: null, currency: 'USD', in_stock: true, brand: null, category: null },
  });
const query = (over: Partial<EngineQuery> = {}): EngineQuery => ({ tenantId, tokens: ['lamp'], offset: 0, limit: 10, ...over });
const labels = async (over: Partial<EngineQuery> = {}) =>
  Object.fromEntries((await engine.search(query(over))).hits.map((h) => [h.id, [h.card.name.en, (h as { description?: { en: string } }).description?.en]]));
const rows = async (table: string) => Number((await db(table).where({ tenant_id: tenantId }).count({ n: '*' }))[0].n);

t.test('a page shows the card and description of the version its document holds', async (t) => {
  await engine.upsert(tenantId, [doc('a', 2, 'a two'), doc('b', 1, 'b one')], SETTINGS);
  // An older version of a arrives late: neither its document nor its card is written; b moves on.
  await engine.upsert(tenantId, [doc('a', 1, 'a one'), doc('b', 3, 'b three')], SETTINGS);
  t.same(await labels(), { a: ['a two', 'about a two'], b: ['b three', 'about b three'] });
  t.same(await labels({ noTextRank: true }), { a: ['a two', undefined], b: ['b three', undefined] }, 'previews read the same cards');
  t.same(await labels({ tokens: [] }), { a: ['a two', 'about a two'], b: ['b three', 'about b three'] }, 'and browsing without words');
  t.equal(await rows('search_cards'), 2, 'one card per document');
  await engine.upsert(tenantId, [{ ...doc('w', 1, 'w'), nameNorm: 'lamp  with three spaces' }], SETTINGS);
  t.equal((await db('search_docs').where({ tenant_id: tenantId, product_id: 'w' }).first()).name_words, 5, "the name's words counted as written");
  await engine.remove(tenantId, ['w']);
});

t.test('removing a product removes its card', async (t) => {
  await engine.upsert(tenantId, [doc('c', 1, 'c one')], SETTINGS);
  await engine.remove(tenantId, ['c']);
  t.equal(await rows('search_docs'), 2);
  t.equal(await rows('search_cards'), 2);
  t.notOk('c' in (await labels()));
});

t.test('generations: the built one brings its cards, the old one takes its cards away', async (t) => {
  const next = await engine.beginGeneration(tenantId, SETTINGS);
  await engine.writeGeneration(tenantId, next, [doc('a', 4, 'a rebuilt'), doc('b', 4, 'b rebuilt')]);
  t.same(await labels(), { a: ['a two', 'about a two'], b: ['b three', 'about b three'] }, 'the serving generation answers while one is built');
  await engine.swapGeneration(tenantId, next);
  t.same(await labels(), { a: ['a rebuilt', 'about a rebuilt'], b: ['b rebuilt', 'about b rebuilt'] });
  t.same(await db('search_cards').where({ tenant_id: tenantId }).distinct('generation').pluck('generation'), [next], 'no card of the old generation left');

  const dropped = await engine.beginGeneration(tenantId, SETTINGS);
  await engine.writeGeneration(tenantId, dropped, [doc('a', 5, 'a dropped')]);
  await engine.dropGeneration(tenantId, dropped);
  t.equal(await rows('search_cards'), 2, 'a dropped generation leaves no card');

  await engine.dropTenant(tenantId);
  t.equal(await rows('search_cards'), 0);
  t.equal(await rows('search_docs'), 0);
});

t.test('migration 026 moves existing cards out and back', async (t) => {
  await engine.upsert(tenantId, [doc('m', 1, 'm one')], SETTINGS);
  // 026 itself, whatever migrations came after it (they are kept).
  await db.migrate.down({ migrationSource, name: '026-search-cards' });
  const back = await db('search_docs').where({ tenant_id: tenantId, product_id: 'm' }).first();
  t.same([back.card.name.en, back.description.en], ['m one', 'about m one'], 'down: the card is on the document again');
  t.notOk(await db.schema.hasTable('search_cards'));
  await db.migrate.latest({ migrationSource });
  t.notOk(await db.schema.hasColumn('search_docs', 'card'));
  t.notOk(await db.schema.hasColumn('search_docs', 'category_paths'));
  t.same(await labels(), { m: ['m one', 'about m one'] }, 'up: the card is read from search_cards');
  t.equal((await db('search_docs').where({ tenant_id: tenantId, product_id: 'm' }).first()).name_words, 2, "up: the name's words counted");
});
