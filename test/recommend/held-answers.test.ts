import t from 'tap';
import { Recommender, type RecommendInput } from '../../shared/recommend/recommender.js';
import { CardCache } from '../../shared/recommend/card-cache.js';
import type { LexicalEngine, ProductCard } from '../../shared/engines/lexical/port.js';
import type { VectorStore } from '../../shared/engines/vectors/port.js';
import type { RecentViews } from '../../shared/recommend/recent-views.js';

const card = (id: string): ProductCard => ({
  id,
  name: { en: `Product ${id}` },
  url: null,
  image_url: null,
  price: '1.00',
  sale_price: null,
  currency: 'SAR',
  in_stock: true,
  brand: 'B',
  category: { en: 'Things' },
});
const catalog = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];

/** A recommender over fakes of its sources that count every read; `held` says whether the signals are in memory. */
function world() {
  const reads = { engine: 0, cardReads: 0, trending: 0, attributes: 0 };
  const w = { held: true, failEngine: false, similar: new Map<string, string[]>([['p1', ['p2', 'p3']]]) };
  const engine = {
    async search(q: { ids?: string[]; exclude?: string[]; limit: number }) {
      if (w.failEngine) throw new Error('engine down');
      if (q.ids) reads.cardReads++;
      else reads.engine++;
      const ids = (q.ids ?? catalog).filter((id) => catalog.includes(id) && !q.exclude?.includes(id)).slice(0, q.limit);
      return { total: ids.length, hits: ids.map((id) => ({ id, score: 1, card: card(id) })), facets: {} };
    },
  } as unknown as LexicalEngine;
  const rec = new Recommender({
    engine,
    vectors: { vectorsOf: async () => new Map(), nearest: async () => [] } as unknown as VectorStore,
    signals: {
      coViews: async () => [],
      trending: async (_t: string, _c: string | null, n: number) => (reads.trending++, ['p4', 'p5', 'p6'].slice(0, n)),
      similar: async (_t: string, pid: string) => w.similar.get(pid) ?? null,
      holds: () => w.held,
    },
    recent: { list: async () => [] } as unknown as RecentViews,
    cards: new CardCache(engine),
    attributesOf: async () => (reads.attributes++, { categoryIds: ['things'], brand: 'B' }),
  });
  return { rec, reads, w };
}
const ask = (type: RecommendInput['type'], productId: string | null = null): RecommendInput => ({ type, productId, categoryId: null, session: null, limit: 2 });
const text = async (p: Promise<Buffer>) => JSON.parse((await p).toString());

t.test('an answer that read something is held; the same answer made from memory alone is made again', async (t) => {
  const { rec, reads, w } = world();
  const first = await text(rec.recommendJson('s', ask('trending')));
  t.same(first.ids, ['p4', 'p5']);
  t.equal(reads.cardReads, 1, 'its cards were read: held');
  await text(rec.recommendJson('s', ask('trending')));
  t.equal(reads.trending, 1, 'the held answer: trends not asked again');
  // Another store's answers, and this one's after a notice, start again: cards now held, so from memory.
  rec.clear('s');
  const again = await text(rec.recommendJson('s', ask('trending')));
  const third = await text(rec.recommendJson('s', ask('trending')));
  t.same(again, first, 'the same answer');
  t.same(third, first);
  t.equal(reads.trending, 3, 'from memory alone: made again each time');
  t.equal(reads.cardReads, 1, 'no card read again');
  // Signals not in memory (a store too big to hold, or loading): the answer is held again.
  rec.clear('s');
  w.held = false;
  await text(rec.recommendJson('s', ask('trending')));
  await text(rec.recommendJson('s', ask('trending')));
  t.equal(reads.trending, 4);
});

t.test('similar: held while its list is first read or it falls back to attributes; from memory after that', async (t) => {
  const { rec, reads } = world();
  const v1 = await text(rec.recommendJson('s', ask('similar', 'p1')));
  t.same(v1, { type: 'similar', ids: ['p2', 'p3'], products: [card('p2'), card('p3')], source: 'vectors' });
  // p6 has no list and no vector: the same category, read from the engine, held.
  const a1 = await text(rec.recommendJson('s', ask('similar', 'p6')));
  const a2 = await text(rec.recommendJson('s', ask('similar', 'p6')));
  t.equal(a1.source, 'attributes');
  t.same(a2, a1);
  t.equal(reads.attributes, 1, 'the attribute answer is held');
  t.notOk(a1.ids.includes('p6'), 'never the product itself');
  // p1's list is now held by the recommender and its cards by the card cache: not held, same answer.
  const v2 = await text(rec.recommendJson('s', ask('similar', 'p1')));
  t.same(v2, v1);
});

t.test('a failed answer is not held: the next request tries again', async (t) => {
  const { rec, w } = world();
  w.failEngine = true;
  await t.rejects(rec.recommendJson('s', ask('similar', 'p6')), /engine down/);
  w.failEngine = false;
  t.equal((await text(rec.recommendJson('s', ask('similar', 'p6')))).source, 'attributes');
});
