import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// "laptop" names a category whose products are called "Notebook": typical products first, not
// the accessories that happen to say "laptop" in their names.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const cat = (id: string, label: string) => [{ id, path: [{ en: 'Electronics' }, { en: label }] }];
const p = (id: string, name: string, category: ReturnType<typeof cat>) => ({ id, name: { en: name }, price: 10, currency: 'USD', categories: category });
const laptops = cat('notebooks', 'Laptops & Notebooks');
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  ...['T14', 'T15', 'X1', 'L13', 'E14', 'P15', 'T16', 'X13', 'L14', 'E15'].map((m, i) => p(`nb${i}`, `Lenovo ThinkPad ${m} Notebook Windows 11`, laptops)),
  p('acc1', 'Origin laptop keyboard UK', laptops),
  p('acc2', 'Targus laptop sleeve', laptops),
  ...Array.from({ length: 15 }, (_, i) => p(`tv${i}`, `Philips ${i}0 inch LCD TV`, cat('tvs', 'TVs'))),
  ...Array.from({ length: 15 }, (_, i) => p(`pc${i}`, `HP desktop PC ${i} Windows 11`, cat('desktops', 'Desktop PCs'))),
]);
const ids = searchIds(h, key);

t.test('a category named by a word its products rarely carry: typical products first', async (t) => {
  const got = await waitFor(
    async () => {
      const r = await ids('laptop');
      return r[0]?.startsWith('nb') ? r : null;
    },
    20_000,
    'notebooks first once the profiles are built',
  );
  t.same(
    got.slice(0, 10).map((id) => id.slice(0, 2)),
    Array(10).fill('nb'),
    'the ten notebooks',
  );
  t.same(got.slice(10).sort(), ['acc1', 'acc2'], 'the accessories after them');
});

t.test('a category named by what its products are called: plain text ranking', async (t) => {
  t.equal((await ids('tv')).filter((id) => id.startsWith('tv')).length, 15);
  const notebook = await ids('notebook');
  t.same(
    notebook.slice(0, 10).map((id) => id.slice(0, 2)),
    Array(10).fill('nb'),
    "the notebooks by their names, then the category's other products",
  );
});
