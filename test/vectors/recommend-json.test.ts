import t from 'tap';
import { recommendJson, type RecommendOut } from '../../shared/recommend/recommender.js';
import type { ProductCard } from '../../shared/engines/lexical/port.js';

const card = (id: string, name: Record<string, string>): ProductCard => ({
  id,
  name,
  url: null,
  image_url: `https://img.example/${id}.jpg`,
  price: '19.90',
  sale_price: null,
  currency: 'SAR',
  in_stock: true,
  brand: 'Brand "Q"',
  category: { en: 'Cables' },
});

t.test('the answer as bytes is the UTF-8 of what JSON.stringify writes, for every source and no products', async (t) => {
  const cards = [card('p1', { en: 'USB-C cable', ar: 'كابل يو إس بي' }), card('p\u2028"2', { en: 'tab\there \\ back' })];
  const outs: RecommendOut[] = [
    { type: 'similar', ids: cards.map((c) => c.id), products: cards, source: 'vectors' },
    { type: 'recently_viewed', ids: [], products: [], source: 'session' },
    { type: 'trending', ids: ['p1'], products: [cards[0]], source: 'popularity' },
  ];
  for (const out of outs) t.same(recommendJson(out), Buffer.from(JSON.stringify(out)));
});

t.test('a card held by the card cache is serialized once: its text is reused by the next answer', async (t) => {
  const c = card('p1', { en: 'Kettle' });
  const first = recommendJson({ type: 'similar', ids: ['p1'], products: [c], source: 'vectors' }).toString();
  // The card cache never changes a held card; a changed object would show here only if its text were made again.
  c.price = '1.00';
  const again = recommendJson({ type: 'also_viewed', ids: ['p1'], products: [c], source: 'co_views' }).toString();
  t.match(first, /"price":"19.90"/);
  t.match(again, /"price":"19.90"/, 'the held text');
  t.equal(
    recommendJson({ type: 'similar', ids: ['p1'], products: [{ ...c }], source: 'vectors' })
      .toString()
      .includes('"price":"1.00"'),
    true,
    'a new card object is serialized anew',
  );
});
