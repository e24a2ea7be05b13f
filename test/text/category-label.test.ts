import t from 'tap';
import { labelParts, pathLabels } from '../../shared/text/category-label.js';
import { buildSearchDoc } from '../../shared/catalog/search-doc.js';
import { toStored } from '../../shared/catalog/canonical.js';

const path = (...levels: string[]) => levels.map((en) => ({ en }));

t.test('a label listing several kinds has its parts', async (t) => {
  t.same(labelParts('Bags, Wallets & Belts'), ['Bags', 'Wallets', 'Belts']);
  t.same(labelParts('Laptops and Notebooks'), ['Laptops', 'Notebooks']);
  t.same(labelParts('Cables/Adapters'), ['Cables', 'Adapters']);
  t.same(labelParts('Screen Protectors'), ['Screen Protectors']);
  t.same(labelParts('حقائب و أحزمة'), ['حقائب', 'أحزمة'], 'Arabic: "و" between words');
});

t.test('a level listing several kinds keeps the ones a deeper level names', async (t) => {
  t.same(pathLabels(path('Bags, Wallets & Belts', 'Belts', 'Ligans Belts')), ['Belts', 'Belts', 'Ligans Belts']);
  t.same(pathLabels(path('Bags, Wallets & Belts', 'Wallets & Clutches', 'Clutches')), ['Wallets', 'Clutches', 'Clutches'], 'each level by the ones below it');
  t.same(pathLabels(path('Kitchen & Dining', 'Glasses & Tumblers')), ['Kitchen & Dining', 'Glasses & Tumblers'], 'none named: all of it; the deepest whole');
  t.same(pathLabels(path('Electronics', 'Laptops & Notebooks')), ['Electronics', 'Laptops & Notebooks'], "the deepest level's parts may name one kind");
  t.same(pathLabels(path('Laptops & Notebooks', 'Gaming Laptops')), ['Laptops', 'Gaming Laptops']);
  t.same(
    pathLabels(path('Mobiles & Accessories', 'Tablet Accessories', 'Cases & Covers')),
    ['Mobiles & Accessories', 'Tablet Accessories', 'Cases & Covers'],
    'what goes with the others makes no kind of its own: mobiles and their accessories, whole',
  );
  t.same(pathLabels(path('Laptops')), ['Laptops'], 'one kind: as it is');
});

t.test('each language on its own: an Arabic level is kept by the Arabic levels below it', async (t) => {
  const got = pathLabels([
    { en: 'Bags & Belts', ar: 'حقائب و أحزمة' },
    { en: 'Belts', ar: 'أحزمة' },
  ]);
  t.same(got, ['Belts', 'Belts', 'أحزمة', 'أحزمة']);
});

t.test("the engine document's category text and stems: the belt no longer says wallets", async (t) => {
  const d = buildSearchDoc(
    toStored({
      id: 'b1',
      name: { en: 'Ligans Men Leather Belt' },
      price: 10,
      currency: 'USD',
      categories: [{ id: 'belts', path: path('Bags, Wallets & Belts', 'Belts') }],
    }),
    new Map(),
    new Date(0),
  );
  t.equal(d.categoryText, 'belts belts');
  t.notOk(d.nameStem.split(' ').includes('wallet'));
  t.ok(d.categoryIds.includes('lvl:bags, wallets & belts'), 'filters and facets keep the whole label');
});
