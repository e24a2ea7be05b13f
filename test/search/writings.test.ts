import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// A store writes measures both ways ("16GB" and "16 GB") and model codes with hyphens or spaces
// ("TN-2110", "RTX 2060"); the shopper types any writing. Made-up products.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const p = (id: string, name: string) => ({ id, name: { en: name }, price: 10, currency: 'USD' });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  p('g1', 'Zeno Ultra 16GB Memory Card'),
  p('g2', 'Kora 16GB microSD Memory Card'),
  p('a1', 'Vortex - flash memory card - 16 GB - SDHC'),
  p('a2', 'Lumo memory card 16 GB Class 10'),
  p('o1', 'Lumo memory card 64 GB Class 10'),
  p('o2', 'Zeno Ultra 32GB Memory Card'),
  // "16" and "GB" apart in one name: no measure of 16 GB.
  p('x1', 'Kora 16 port switch with 1 GB buffer memory card slot'),
  // Many products with the unit and a number, none of them a pen drive.
  ...Array.from({ length: 20 }, (_, i) => p(`n${i}`, `Nimbus Notebook ${i + 1} GB RAM 32 cm screen`)),
  p('d1', 'Vortex 32GB Pen Drive'),
  p('d2', 'Kora 32 GB USB Pen Drive'),
  p('d3', 'Lumo 8GB Pen Drive'),
  p('c1', 'Brother TN-2110 Toner Cartridge Black'),
  p('c2', 'Brother TN-2120 Toner Cartridge Black'),
  p('c3', 'Samsung Galaxy SM-G980F Phone 128 GB'),
  p('c4', 'Zotac GeForce RTX 2060 Graphics Card'),
  p('c5', 'Zotac GeForce GTX 1060 Graphics Card'),
  p('i5', 'Speck Grip Case for iPhone 5 and 5s'),
  p('i6', 'Speck Grip Case for iPhone 6'),
  // The store writes litres in ml; lunch boxes say "1 Containers" and mention a water bottle.
  ...Array.from({ length: 4 }, (_, i) => ({ ...p(`l${i}`, `Kora ${i + 1} Containers Lunch Box`), description: { en: 'Comes with a water bottle' } })),
  p('b1', 'Vortex Sports 750 ml Water Bottle'),
  p('b2', 'Lumo Steel 1000 ml Water Bottle'),
  p('b3', 'Lite Flask Steel Bottle'),
]);
const ids = searchIds(h, key);
const sorted = (a: string[]) => [...a].sort();

t.test('a measure matches both writings of the store, typed apart or glued', async (t) => {
  // The glued writing is known once the vocabulary is built.
  await waitFor(async () => ((await h.api.deps.repos.vocabulary.terms(tenantId)).terms.has('16gb') ? true : null), 20_000, 'vocabulary built');
  for (const q of ['16 gb memory card', '16gb memory card']) {
    const got = await ids(q);
    t.same(sorted(got.slice(0, 4)), ['a1', 'a2', 'g1', 'g2'], `${q}: both writings first`);
    t.ok(got.indexOf('x1') > 3, `${q}: "16 port ... 1 GB" is no 16 GB (only a partial match after them)`);
  }
});

t.test('matching some of the words, the measure counts as rare as it is, not as its common number and unit', async (t) => {
  // No product has every word ("stick"): the 32 GB pen drives first, both writings, before the 8 GB one and the notebooks.
  for (const q of ['32 gb pen stick', '32gb pen stick']) {
    const got = await ids(q);
    t.same(sorted(got.slice(0, 2)), ['d1', 'd2'], q);
    t.equal(got[2], 'd3', `${q}: then the other pen drive (${got.join()})`);
  }
});

t.test('a model code typed without its hyphens or spaces finds the product, as does one typed with them', async (t) => {
  for (const [q, want] of [
    ['tn2110', ['c1']],
    ['tn 2110', ['c1']],
    ['tn-2110', ['c1']],
    ['brother tn2110 toner', ['c1']],
    ['smg980f', ['c3']],
    ['sm g980f', ['c3']],
    ['rtx2060', ['c4']],
    ['rtx 2060', ['c4']],
    ['iphone5 case', ['i5']],
  ] as const) {
    const got = await ids(q);
    t.same(got.slice(0, 1), want, `${q}: ${got.join()}`);
  }
  t.notOk((await ids('tn 2110')).includes('c2'), 'the other toner has "tn" but not 2110');
});

t.test('a measure is one phrase, in any unit of its quantity: its number alone is no match of it', async (t) => {
  // The store writes ml: the water bottles, not the lunch boxes with "1" in the name and a water bottle in the description.
  const got = await ids('water bottle 1 litre');
  t.same(got.slice(0, 2), ['b2', 'b1'], `the 1000 ml bottle first (the same measure in the unit the store writes), then the other: ${got.join()}`);
  t.same(sorted(got.slice(2, 6)), ['l0', 'l1', 'l2', 'l3'], 'then the lunch boxes, for the words of their description');
});

t.test('a measure typed glued finds it in the other units too', async (t) => {
  t.equal((await ids('1l water bottle'))[0], 'b2');
  t.equal((await ids('0.75l water bottle'))[0], 'b1');
});

t.test('odd numbers and units answer like any query, never a server error', async (t) => {
  for (const q of ['99999999999999999999999 gb', '12345678901234567890tb', '0 ml bottle', '0.0001 kg', '1.5.5 l', '1,5 l water', '٣ كغ']) {
    const res = await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key });
    t.equal(res.status, 200, q);
  }
});
