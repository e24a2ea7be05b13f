import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// "gaming mouse": a mouse that says "gaming" only in its description is still a gaming mouse,
// and ranks above a "gaming mouse pad", whose name holds both words side by side.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const cat = (id: string, label: string) => [{ id, path: [{ en: 'Electronics' }, { en: label }] }];
const p = (id: string, name: string, category: ReturnType<typeof cat>, description = '') => ({
  id,
  name: { en: name },
  description: { en: description },
  price: 10,
  currency: 'USD',
  categories: category,
});
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  p('pad', 'Acme Fury gaming mouse pad', cat('mouse-pads', 'Mousepads')),
  p('m1', 'Acme M200 mouse USB 16000 DPI', cat('mice', 'Mice'), 'A light mouse built for gaming, with six buttons'),
  p('m2', 'Acme M100 wireless mouse', cat('mice', 'Mice')),
  p('kb', 'Acme K1 keyboard', cat('keyboards', 'Keyboards')),
]);
const ids = searchIds(h, key);

t.test('a word far from the others still counts: the mouse ranks above the mouse pad', async (t) => {
  // Category intent needs the vocabulary refresh after the load.
  const got = await waitFor(
    async () => {
      const r = await ids('gaming mouse');
      return r[0] === 'm1' ? r : null;
    },
    20_000,
    'the mouse first',
  );
  t.same(got.slice(0, 2), ['m1', 'pad'], 'both words: the mouse, then the pad');
  t.same(got.slice(2), ['m2'], 'then the mouse with one of the words');
});

t.test('an irregular plural names its category: "mice" finds the mice first', async (t) => {
  const got = await ids('mice');
  t.same([...got.slice(0, 2)].sort(), ['m1', 'm2'], 'the two mice');
  t.same(got.slice(2), ['pad'], 'the pad says mouse too, after them');
});
