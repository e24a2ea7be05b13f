import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// Two mechanisms learned from the store's own text once its vocabulary is built: brand words (the
// words its titles open with) and a word found in a description covering a share of the query.
// Made-up products.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const p = (id: string, name: string, description?: string) => ({
  id,
  name: { en: name },
  ...(description ? { description: { en: description } } : {}),
  price: 10,
  currency: 'USD',
});
const sorted = (a: string[]) => [...a].sort();

t.test('a brand word of the store: the products whose names open with it before those that mention it', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  await loadProducts(h, key, tenantId, [
    p('z1', 'Zeno 10-Speed Countertop Blender with Travel Cup'),
    p('z2', 'Zeno Personal Blender - Red'),
    p('z3', 'Zeno Glass Jug Blender'),
    // Short names that have the word too: by name length alone they would come first.
    p('k1', 'Kora Zeno Lid'),
    p('k2', 'Vortex Zeno Jar'),
    ...Array.from({ length: 10 }, (_, i) => p(`f${i}`, `Filler Kettle ${i + 1}`)),
  ]);
  const ids = searchIds(h, key);
  const got = await waitFor(
    async () => {
      const r = await ids('zeno');
      return sorted(r.slice(0, 3)).join() === 'z1,z2,z3' ? r : null;
    },
    20_000,
    'the Zeno products first once the vocabulary knows that names open with "zeno"',
  );
  t.same(sorted(got.slice(3, 5)), ['k1', 'k2'], 'then the products that mention it');
  const { openings } = await h.api.deps.repos.vocabulary.terms(tenantId);
  t.equal(openings.get('zeno'), 3, 'the vocabulary counts the names each word opens');
  t.equal(openings.get('kora'), 1);
});

t.test('matching any word, a product with the other word in its description covers the query more', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  // "alpha" in 3 names, "beta" in 4: nearly as rare. No name has both.
  await loadProducts(h, key, tenantId, [
    p('a1', 'Alpha Widget'),
    p('a2', 'Alpha Gadget'),
    p('a3', 'Alpha Gizmo'),
    // A description of more than a few words (a short one is indexed as a second name).
    p('b1', 'Beta Widget', 'Pairs with any Alpha console in minutes, with a cable and a stand in the box'),
    p('b2', 'Beta Thing One'),
    p('b3', 'Beta Thing Two'),
    p('b4', 'Beta Thing Three'),
    ...Array.from({ length: 24 }, (_, i) => p(`f${i}`, `Filler Kettle ${i + 1}`)),
  ]);
  const ids = searchIds(h, key);
  const got = await waitFor(
    async () => {
      const r = await ids('alpha beta');
      return r[0] === 'b1' ? r : null;
    },
    20_000,
    'the Beta product described with "Alpha" first: the rarer word alone covers less than both',
  );
  t.same(sorted(got.slice(1, 4)), ['a1', 'a2', 'a3'], 'then the rarer word alone');
  t.same(sorted(got.slice(4, 7)), ['b2', 'b3', 'b4'], 'then the commoner word alone');
});
