import t from 'tap';
import { andThenOr, miniSearchDefault, miniSearchTuned, peerDoc, peerFields } from '../../scripts/eval/peers.js';

t.test('andThenOr: all-term results first, then any-term ones not yet listed, cut at k', async (t) => {
  t.same(andThenOr(['a', 'b'], ['c', 'a', 'd', 'b', 'e'], 4), ['a', 'b', 'c', 'd']);
  t.same(andThenOr(['a', 'b', 'c'], ['d'], 2), ['a', 'b'], 'enough all-term results: no fill');
  t.same(andThenOr([], ['x', 'y', 'x'], 5), ['x', 'y'], 'no all-term result: any-term ones, each once');
  t.same(andThenOr([], [], 3), []);
});

const products = [
  { id: 'jar', name: { en: 'Blendtec 64 oz. Blender Jar' }, description: { en: 'A jar for a blender.' }, price: '0', currency: 'USD' },
  { id: 'blender', name: { en: 'Oster Beehive Blender' }, description: { en: 'Kitchen blender with glass jar, 6 speeds.' }, price: '0', currency: 'USD' },
  { id: 'pad', name: { en: 'Mattress Pad' }, description: { en: 'Quilted pad.' }, price: '0', currency: 'USD' },
  { id: 'board', name: { en: 'Sector 9 Longboard' }, price: '0', currency: 'USD', brand: null },
];

t.test('peer documents hold the text the service got; fields without text in the collection are not indexed', async (t) => {
  const docs = products.map(peerDoc);
  t.same(docs[3], { id: 'board', name: 'Sector 9 Longboard', description: '', brand: '', model: '' });
  t.same(peerFields(docs), ['name', 'description']);
  t.same(peerFields([...docs, peerDoc({ id: 'x', name: { en: 'X' }, brand: 'HP', model: 'M1', price: '1', currency: 'USD' })]), [
    'name',
    'description',
    'brand',
    'model',
  ]);
});

t.test('MiniSearch defaults match any term; tuned lists all-term matches first, then fills with any-term ones', async (t) => {
  const docs = products.map(peerDoc);
  const plain = miniSearchDefault(docs);
  t.same(new Set(plain('longboard pad', 10)), new Set(['board', 'pad']), 'OR: either word');
  t.same(plain('longboard pad', 1).length, 1, 'cut at k');
  t.same(plain('nothing-like-this', 10), []);
  // A short name with one of the words outscores a long text with both under OR; AND-first turns that round.
  const kettles = [
    { id: 'kettle', name: { en: 'Kettle' }, description: { en: 'Kettle.' }, price: '0', currency: 'USD' },
    {
      id: 'red-maker',
      name: { en: 'Electric tea maker, 1.7 litre, stainless steel' },
      description: { en: 'A large tea maker in red that boils water faster than a stove-top kettle, with a keep-warm plate.' },
      price: '0',
      currency: 'USD',
    },
    { id: 'red-mug', name: { en: 'Mug' }, description: { en: 'Red.' }, price: '0', currency: 'USD' },
  ].map(peerDoc);
  t.same(miniSearchDefault(kettles)('red kettle', 10), ['kettle', 'red-maker', 'red-mug'], 'defaults: the one-word match in a short name first');
  t.same(miniSearchTuned(kettles)('red kettle', 10), ['red-maker', 'kettle', 'red-mug'], 'tuned: the product with both words first');
  t.same(miniSearchTuned(kettles)('red kettle', 2), ['red-maker', 'kettle'], 'cut at k');
});
