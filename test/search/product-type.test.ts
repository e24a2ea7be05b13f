import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
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
const ids = async (q: string) => ((await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key })).body as { ids: string[] }).ids;
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
