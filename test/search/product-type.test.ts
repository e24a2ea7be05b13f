import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// Ranking learned from the store's own catalog once its vocabulary is built: the product type of
// each title (its head noun) and the rarity of each word. Made-up products.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const p = (id: string, name: string) => ({ id, name: { en: name }, price: 10, currency: 'USD' });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  p('j1', 'Vortex 64 oz. Blender Jar'),
  p('j2', 'Vortex Blender Jar'),
  p('b1', 'Zeno 10-Speed Countertop Blender with Travel Cup'),
  p('b2', 'Zeno Personal Blender - Red'),
  p('b3', 'Kora Glass Jug Blender'),
  p('s1', 'Kestrel Maple Skateboard'),
  p('s2', 'Kestrel Street Skateboard'),
  p('s3', 'Kestrel Cruiser Skateboard'),
  ...Array.from({ length: 12 }, (_, i) => p(`m${i}`, `Cotton Mattress Pad ${i + 1}`)),
  ...Array.from({ length: 6 }, (_, i) => p(`n${i}`, `Writing Pads Set ${i + 1}`)),
]);
const ids = searchIds(h, key);
const sorted = (a: string[]) => [...a].sort();

t.test('a thing outranks the accessories of it: the blenders before the blender jars', async (t) => {
  const got = await waitFor(
    async () => {
      const r = await ids('blender');
      return sorted(r.slice(0, 3)).join() === 'b1,b2,b3' ? r : null;
    },
    20_000,
    "the blenders first once the store's product types are learned",
  );
  t.same(sorted(got.slice(3)), ['j1', 'j2'], 'then the jars, which mention the blender');
  const { heads } = await h.api.deps.repos.vocabulary.terms(tenantId);
  t.equal(heads.get('blender'), 3, 'the vocabulary counts the products of each type');
  t.equal(heads.get('jar'), 2);
});

t.test('a misspelt type is read as corrected: "blendr" puts the blenders first too', async (t) => {
  const got = await ids('blendr');
  t.same(sorted(got.slice(0, 3)), ['b1', 'b2', 'b3'], `then the jars: ${got}`);
  t.same(sorted(got.slice(3)), ['j1', 'j2']);
});

t.test('the accessory when the shopper names it', async (t) => {
  t.same(sorted((await ids('blender jar')).slice(0, 2)), ['j1', 'j2']);
});

t.test('matching some of the words, a rare word outweighs a common one', async (t) => {
  // No product has both words: the three skateboards (a rare word) before 18 pads (a common one).
  const got = await ids('skateboard pads');
  t.same(sorted(got.slice(0, 3)), ['s1', 's2', 's3']);
  t.ok(
    got.slice(3).every((id) => /^[mn]/.test(id)),
    'then the pads',
  );
});

t.test('a qualifier\'s words count in descriptions: the bikes "for children" before child bike seats', async (t) => {
  const other = await h.tenant();
  const d = (id: string, name: string, description: string) => ({ ...p(id, name), description: { en: description } });
  await loadProducts(h, other.key, other.id, [
    p('c1', 'Rear Child Bike Seat - Grey'),
    p('c2', 'Front Child Bike Seat - Red'),
    p('c3', 'Child Bike Seat Carrier'),
    // "for" is a catalog word here, as in most stores: the query's words must all match, which no seat does.
    p('x1', 'Cover for Grills'),
    d('b1', 'Balance Bike', 'A light first bike with no pedals and a low seat, made for children learning to ride'),
    d('b2', 'Mongoose Boys Bike', 'A steel frame and coaster brakes, sized for children of six to nine years old'),
    d('b3', 'Huffy Girls Bike', 'Comes with training wheels, a basket and streamers, for children who start riding'),
  ]);
  const search = async (q: string) => ((await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key: other.key })).body as { ids: string[] }).ids;
  const got = await waitFor(
    async () => {
      const r = await search('bike for children');
      return sorted(r.slice(0, 3)).join() === 'b1,b2,b3' ? r : null;
    },
    20_000,
    'the bikes first: each has "children" in its description, the seats have "child" in the name but are seats',
  );
  t.same(sorted(got.slice(3, 6)), ['c1', 'c2', 'c3']);
});
